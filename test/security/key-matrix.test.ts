import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createApiKey } from '../../src/security/api-keys.js';
import { blockApp, type TestApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

const PRICES =
  '{ prices(zones: ["DE_LU"], from: "2025-11-01T00:00", to: "2025-11-01T03:00", resolution: HOURLY, first: 2) { edges { node { priceEurMwh } } } }';
const LIVE = 'subscription { pricesPublished(zones: ["DE_LU"]) { zones } }';
const dir = mkdtempSync(join(tmpdir(), 'key-matrix-'));
const MANIFEST = join(dir, 'manifest.json');
writeFileSync(MANIFEST, JSON.stringify({ 'sha256:prices': PRICES, 'sha256:live': LIVE }));

/** Where the operation comes from: text, a persisted id (GraphQL over HTTP), or Apollo's persistedQuery extension. */
const SOURCES = {
  text: (op: 'prices' | 'live') => ({ query: op === 'prices' ? PRICES : LIVE }),
  documentId: (op: 'prices' | 'live') => ({ documentId: `sha256:${op}` }),
  apollo: (op: 'prices' | 'live') => ({
    extensions: { persistedQuery: { version: 1, sha256Hash: `sha256:${op}` } },
  }),
} as const;
type Source = keyof typeof SOURCES;

const ACCEPTS = [
  null,
  '*/*',
  'text/html',
  'text/html, application/json',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'application/json',
  'application/graphql-response+json',
  'text/event-stream',
  'text/event-stream, text/html',
  'multipart/mixed, text/html',
] as const;

/** A GET or POST request running `op` from `source`, with `accept` (none when null). */
function operationRequest(
  method: 'GET' | 'POST',
  source: Source,
  op: 'prices' | 'live',
  accept: string | null,
  key?: string,
): [string, RequestInit] {
  const params = SOURCES[source](op);
  const headers: Record<string, string> = {};
  if (accept !== null) headers.accept = accept;
  if (key) headers['x-api-key'] = key;
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    return ['/graphql', { method, headers, body: JSON.stringify(params) }];
  }
  const search = new URLSearchParams(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  return [`/graphql?${search}`, { method, headers }];
}

/** Status and the first bytes of the body; a stream (SSE, multipart) is cancelled after its first chunk. */
async function probe(app: TestApp, [path, init]: [string, RequestInit]): Promise<{ status: number; head: string }> {
  const res = await app.get(path, init);
  const reader = res.body?.getReader();
  if (!reader) return { status: res.status, head: '' };
  const first = await reader.read();
  await reader.cancel();
  return { status: res.status, head: first.value ? new TextDecoder().decode(first.value).slice(0, 400) : '' };
}

const CONFIGS = [
  { GRAPHIQL: false, PERSISTED_OPERATIONS_ONLY: false },
  { GRAPHIQL: false, PERSISTED_OPERATIONS_ONLY: true },
  { GRAPHIQL: true, PERSISTED_OPERATIONS_ONLY: false },
  { GRAPHIQL: true, PERSISTED_OPERATIONS_ONLY: true },
];

describe.each(CONFIGS)(
  'keys required, GRAPHIQL=$GRAPHIQL, PERSISTED_OPERATIONS_ONLY=$PERSISTED_OPERATIONS_ONLY',
  (flags) => {
    it.override({ backend: 'pglite', seed: 'empty' });
    // A database of its own: each configuration creates its key there.
    const app = blockApp(it, {
      config: { API_KEY_REQUIRED: true, PERSISTED_OPERATIONS_FILE: MANIFEST, RATE_LIMIT_CAPACITY: 100_000, ...flags },
      dashboardDir: join(dir, 'no-dashboard-built'),
      own: true,
    });
    let key: string;
    const keyed = blockSetup();
    it.beforeEach(() =>
      keyed.run(async () => {
        ({ key } = await createApiKey(app.db, 'matrix'));
      }),
    );

    const cases = (['GET', 'POST'] as const).flatMap((method) =>
      (Object.keys(SOURCES) as Source[]).flatMap((source) =>
        (['prices', 'live'] as const).flatMap((op) => ACCEPTS.map((accept) => ({ method, source, op, accept }))),
      ),
    );

    /** Yoga's GraphiQL plugin answers any browser GET with its page before access is checked: the page, never a result. */
    const getsPage = (c: (typeof cases)[number]) =>
      flags.GRAPHIQL && c.method === 'GET' && (c.accept ?? '').includes('text/html');

    it(`answers all ${cases.length} operation requests without a key with 401 (or the bare GraphiQL page), never a result`, async () => {
      const leaks: string[] = [];
      for (const c of cases) {
        const { status, head } = await probe(app, operationRequest(c.method, c.source, c.op, c.accept));
        const ok = getsPage(c)
          ? status === 200 && head.trimStart().startsWith('<!doctype html>') && !/"data"|priceEurMwh/.test(head)
          : status === 401 && /"UNAUTHENTICATED"/.test(head) && !/"data"|priceEurMwh|event: next/.test(head);
        if (!ok) leaks.push(`${c.method} ${c.source} ${c.op} accept=${c.accept}: ${status} ${head.slice(0, 80)}`);
      }
      expect(leaks).toEqual([]);
    });

    it('runs the persisted query with a key, over GET and POST', async () => {
      for (const method of ['GET', 'POST'] as const) {
        const { status, head } = await probe(
          app,
          operationRequest(method, 'documentId', 'prices', 'application/json', key),
        );
        expect(status).toBe(200);
        expect(JSON.parse(head)).toEqual({ data: { prices: { edges: [] } } });
      }
    });

    it('opens the persisted subscription over SSE with a key', async () => {
      const { status } = await probe(app, operationRequest('GET', 'documentId', 'live', 'text/event-stream', key));
      expect(status).toBe(200);
    });

    it(`serves the GraphiQL page without a key only when GRAPHIQL is on (here ${flags.GRAPHIQL ? 'on' : 'off'})`, async () => {
      const res = await app.get('/graphql', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      const body = await res.text();
      if (flags.GRAPHIQL) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/text\/html/);
        expect(body).toMatch(/graphiql/i);
      } else {
        expect(res.status).toBe(401);
        expect(body).not.toMatch(/graphiql/i);
      }
    });

    it('refuses GET requests carrying only an operation name, variables or extensions without a key', async () => {
      for (const search of ['operationName=X', 'variables=%7B%7D', 'extensions=%7B%7D', 'query=']) {
        const res = await app.get(`/graphql?${search}`, { headers: { accept: 'application/json' } });
        expect({ search, status: res.status }).toEqual({ search, status: 401 });
      }
    });

    it('keeps the OpenAPI document and the API reference public', async () => {
      expect((await app.get('/api/v1/openapi.json')).status).toBe(200);
      expect((await app.get('/api/v1/docs')).status).toBe(200);
    });
  },
);
