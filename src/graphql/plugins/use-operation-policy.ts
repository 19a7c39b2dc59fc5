import { readFileSync } from 'node:fs';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { type DocumentNode, type GraphQLSchema, parse, validate } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { z } from 'zod';
import { type Config, ConfigError } from '../../config.js';
import { useHideSuggestions } from './use-hide-suggestions.js';

/** A persisted-operations manifest: operation id (a hash) to document text, as graphql-codegen's client preset writes it. */
export type OperationManifest = ReadonlyMap<string, DocumentNode>;

const manifestShape = z.record(z.string().min(1).max(128), z.string().min(1));

/**
 * Reads and checks a manifest file: JSON `{ "<id>": "<document>" }`, every document parsed and
 * validated against `schema` now, so a stale manifest stops the start instead of failing requests.
 * `source` names where the file comes from in errors.
 * @throws ConfigError naming the file and each bad entry.
 */
export function loadOperationManifest(
  path: string,
  schema: GraphQLSchema,
  source = 'PERSISTED_OPERATIONS_FILE',
): OperationManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${source} ${path}: cannot read it as JSON (${(err as Error).message})`);
  }
  const parsed = manifestShape.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${source} ${path}: expected an object of id -> document text`);
  const problems: string[] = [];
  const manifest = new Map<string, DocumentNode>();
  for (const [id, text] of Object.entries(parsed.data)) {
    try {
      const doc = parse(text);
      const errors = validate(schema, doc);
      if (errors.length) problems.push(`  ${id}: ${errors.map((e) => e.message).join('; ')}`);
      else manifest.set(id, doc);
    } catch (err) {
      problems.push(`  ${id}: ${(err as Error).message}`);
    }
  }
  if (problems.length)
    throw new ConfigError(`${source} ${path}: operations that do not fit the schema:\n${problems.join('\n')}`);
  return manifest;
}

/** The `documentId` of a GET request's query string: Yoga's GET parser reads only the standard parameters. */
function documentIdOfGet(request: Request | undefined): string | null {
  if (request?.method !== 'GET') return null;
  return new URL(request.url, 'http://localhost').searchParams.get('documentId') || null;
}

/**
 * The id of a persisted operation in a request: `documentId` (GraphQL over HTTP persisted documents,
 * in the body of a POST or the query string of a GET) or Apollo's `extensions.persistedQuery.sha256Hash`.
 */
export function persistedOperationId(params: GraphQLParams, request?: Request): string | null {
  const documentId = (params as { documentId?: unknown }).documentId ?? documentIdOfGet(request);
  if (typeof documentId === 'string') return documentId;
  const pq = (params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | undefined)
    ?.persistedQuery;
  return pq?.version === 1 && typeof pq.sha256Hash === 'string' ? pq.sha256Hash : null;
}

/**
/** Where a built dashboard's manifest comes from, in start-up errors. */
const DASHBOARD_SOURCE = 'the dashboard bundle (rebuild it: npm run build:dashboard)';

/**
 * The plugins that narrow what GraphQL clients may send, from the configuration:
 * persisted operations (`PERSISTED_OPERATIONS_FILE`, plus the built dashboard's own manifest
 * `dashboardManifest` when there is one, so the dashboard works under `PERSISTED_OPERATIONS_ONLY`;
 * only those with `PERSISTED_OPERATIONS_ONLY`) and no introspection (`GRAPHQL_INTROSPECTION=false`: introspection fields refused and no
 * suggestions in validation errors). Persisted documents are validated per request like any other
 * (Yoga caches the result per document), so the manifest cannot bring back what is switched off.
 */
export function useOperationPolicy(
  config: Config,
  schema: GraphQLSchema,
  dashboardManifest: string | null = null,
): Plugin[] {
  const plugins: Plugin[] = [];
  if (config.PERSISTED_OPERATIONS_ONLY && !config.PERSISTED_OPERATIONS_FILE) {
    throw new ConfigError(
      'PERSISTED_OPERATIONS_ONLY needs PERSISTED_OPERATIONS_FILE (the manifest of allowed operations)',
    );
  }
  const manifests = [
    ...(config.PERSISTED_OPERATIONS_FILE ? [loadOperationManifest(config.PERSISTED_OPERATIONS_FILE, schema)] : []),
    ...(dashboardManifest ? [loadOperationManifest(dashboardManifest, schema, DASHBOARD_SOURCE)] : []),
  ];
  if (manifests.length) {
    const manifest = new Map(manifests.flatMap((m) => [...m]));
    plugins.push(
      usePersistedOperations({
        getPersistedOperation: (id) => manifest.get(id) ?? null,
        allowArbitraryOperations: !config.PERSISTED_OPERATIONS_ONLY,
        extractPersistedOperationId: persistedOperationId,
        customErrors: {
          notFound: {
            message: 'Unknown persisted operation id',
            extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
          },
          persistedQueryOnly: {
            message: 'This server only runs persisted operations: send documentId',
            extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
          },
          keyNotFound: {
            message: 'Send a query or a documentId',
            extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
          },
        },
      }),
    );
  }
  if (!config.GRAPHQL_INTROSPECTION) plugins.push(useDisableIntrospection(), useHideSuggestions());
  return plugins;
}
