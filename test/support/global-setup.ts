/**
 * vitest globalSetup: builds the PGlite test dumps (uncompressed tarballs) once per run (schema + catalogue, then the small
 * demo data set on top) into a temporary directory and provides their paths to the workers
 * (`inject('pgliteEmptyDump')`, `inject('pgliteDemoDump')`), once for all the run's projects (vitest.config.ts).
 * Removes the directory when the last project tears down.
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

/** The dumps of this vitest process, shared by its projects (each runs the global setup). */
interface SharedDumps {
  readonly dir: string;
  readonly paths: Promise<{ empty: string; demo: string }>;
  users: number;
}
const SHARED = Symbol.for('eumarket-api.test-dumps');

export default async function setup(project: TestProject): Promise<() => void> {
  const holder = globalThis as { [SHARED]?: SharedDumps };
  let shared = holder[SHARED];
  if (!shared) {
    const dir = mkdtempSync(join(tmpdir(), 'eumarket-test-db-'));
    shared = { dir, paths: buildTestDumps(dir), users: 0 };
    holder[SHARED] = shared;
  }
  shared.users += 1;
  const mine = shared;
  const release = () => {
    mine.users -= 1;
    if (mine.users > 0) return;
    rmSync(mine.dir, { recursive: true, force: true });
    if (holder[SHARED] === mine) delete holder[SHARED];
  };
  const paths = await mine.paths.catch((error: unknown) => {
    release();
    throw error;
  });
  project.provide('pgliteEmptyDump', paths.empty);
  project.provide('pgliteDemoDump', paths.demo);
  return release;
}
