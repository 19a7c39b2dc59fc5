import { mkdtempSync, rmSync } from 'node:fs';
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
