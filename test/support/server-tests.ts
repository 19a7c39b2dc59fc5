/**
 * The test files that reach PostgreSQL or Redis: with TEST_ENGINES=postgres (CI's leg 2, after leg 1
 * ran every file on the embedded engine) vitest.config.ts runs only these. A file reaches a server when
 * it names the engine list (`TEST_BACKENDS`), a server's URL, or opens `'postgres'` by name; helpers
 * (test/support/, test/security/support.ts) open a server only for an engine a test passes in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

const SERVER_MARK = /\b(TEST_BACKENDS|TEST_DATABASE_URL|TEST_REDIS_URL)\b|\(\s*'postgres'/;

/** Paths relative to `root` of the `*.test.ts` files under `root/test` that reach a server, sorted. */
export function serverTestFiles(root: string, exclude: readonly string[] = ['scale-out']): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && !exclude.some((e) => f.startsWith(`${e}${sep}`)))
    .filter((f) => SERVER_MARK.test(readFileSync(join(root, 'test', f), 'utf8')))
    .map((f) => join('test', f))
    .sort();
}
