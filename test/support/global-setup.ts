/**
 * vitest globalSetup: builds the PGlite test dumps (uncompressed tarballs) once per run (schema + catalogue, then the small
 * demo data set on top) into a temporary directory and provides their paths to the workers
 * (`inject('pgliteEmptyDump')`, `inject('pgliteDemoDump')`). Removes the directory at teardown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../src/db/client.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW, prepareTestDatabase } from './db.js';
import { seedDemo } from '../../src/demo/seed.js';

/** Uncompressed: every test database restores one, and gunzipping it took longer than the untar and start together. */
async function writeDump(pglite: { dumpDataDir(c: 'none'): Promise<Blob> }, path: string): Promise<void> {
  const blob = await pglite.dumpDataDir('none');
  writeFileSync(path, new Uint8Array(await blob.arrayBuffer()));
}

/** Builds both dumps into `dir` and returns their paths. */
export async function buildTestDumps(dir: string): Promise<{ empty: string; demo: string }> {
  const db = await openPglite('memory://');
  try {
    const pglite = db.pglite;
    if (!pglite) throw new Error('PGlite database without its engine');
    const paths = { empty: join(dir, 'empty.tar'), demo: join(dir, 'demo.tar') };
    await prepareTestDatabase(db, 'empty');
    await writeDump(pglite, paths.empty);
    await seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM });
    await pglite.query('CHECKPOINT');
    await writeDump(pglite, paths.demo);
    return paths;
  } finally {
    await db.close();
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'eumarket-test-db-'));
  const paths = await buildTestDumps(dir);
  project.provide('pgliteEmptyDump', paths.empty);
  project.provide('pgliteDemoDump', paths.demo);
  return () => rmSync(dir, { recursive: true, force: true });
}
