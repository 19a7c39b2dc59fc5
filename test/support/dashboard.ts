import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboard } from '../../scripts/build-dashboard.js';

/** A dashboard bundle built for one test file into a temporary directory (esbuild: about a second). */
export interface BuiltDashboard {
  readonly dir: string;
  readonly files: string[];
  remove(): void;
}

/** Builds the dashboard from src/dashboard (its GraphQL types need `npm run codegen`, which `npm test` runs first). */
export async function buildTestDashboard(): Promise<BuiltDashboard> {
  const dir = mkdtempSync(join(tmpdir(), 'eumarket-dashboard-'));
  const files = await buildDashboard(dir);
  return { dir, files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The query text of one of the dashboard's documents (`src/dashboard/queries.ts`), which carry only
 * their persisted id: looked up in the manifest codegen writes beside them.
 */
export function dashboardDocumentText(document: unknown): string {
  const id = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  const manifest = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../src/dashboard/gql/persisted-documents.json'), 'utf8'),
  ) as Record<string, string>;
  const text = id === undefined ? undefined : manifest[id];
  if (text === undefined) throw new Error(`no persisted document ${id ?? '(without an id)'}: run npm run codegen`);
  return text;
}
