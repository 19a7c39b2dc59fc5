/**
 * The command-line contract shared by every CLI, each run as a real child process from the
 * sources: `--help` prints the usage and exits 0; a wrong option prints one line and exits 2;
 * `keys` on a database that was never migrated says so in one line.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../support/env.js';
import { run } from './children.js';

const CLIS = [
  ['keys', 'src/cli/keys.ts'],
  ['ingest', 'src/cli/ingest.ts'],
  ['db:seed', 'src/cli/seed.ts'],
  ['db:migrate', 'src/cli/migrate.ts'],
  ['bench', 'bench/run.ts'],
] as const;

const tsx = (file: string, args: readonly string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['--import', 'tsx', file, ...args], env);

const NO_SCHEMA = 'keys: The database has no schema yet: run `npm run db:migrate` (or start the server once)\n';

describe.each(CLIS)('npm run %s', (script, file) => {
  it('prints its usage and exits 0 on --help', async () => {
    const result = await tsx(file, ['--help']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^usage: npm run ${script}`));
  });

  it('prints one line and exits 2 on a wrong option', async () => {
    const result = await tsx(file, ['--no-such-option']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `${script}: Unknown option '--no-such-option' (see npm run ${script} -- --help)\n`,
    });
  });
});

describe('npm run keys on a database never migrated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says the embedded database has no schema yet, in one line, and exits 1; after db:migrate it lists no keys', async () => {
    const env = { PGLITE_DIR: join(dir, 'pglite') };
    expect(await tsx('src/cli/keys.ts', ['list'], env)).toEqual({ code: 1, stdout: '', stderr: NO_SCHEMA });
    expect((await tsx('src/cli/migrate.ts', [], env)).code).toBe(0);
    expect(await tsx('src/cli/keys.ts', ['list'], env)).toEqual({ code: 0, stdout: 'No API keys.\n', stderr: '' });
  });

  it.skipIf(!TEST_DATABASE_URL)('says a PostgreSQL schema that does not exist has no schema yet', async () => {
    const env = {
      DATABASE_URL: TEST_DATABASE_URL!,
      DATABASE_SCHEMA: `keys_cli_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    };
    expect(await tsx('src/cli/keys.ts', ['list'], env)).toEqual({ code: 1, stdout: '', stderr: NO_SCHEMA });
  });
});

describe('npm run db:seed', () => {
  it('shows the progress of its load on stderr, one line per month off a terminal, and honours DEMO_HISTORY_DAYS', async () => {
    const result = await tsx('src/cli/seed.ts', [], { PGLITE_DIR: 'memory://', DEMO_HISTORY_DAYS: '3' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^demo data: loading ([12]) month\(s\)\n/);
    const months = Number(/loading (\d) month/.exec(result.stderr)?.[1]);
    expect(result.stderr.match(/^\[\d\/\d\] demo data \d{4}-\d\d: .*\d+ row\(s\)/gm)).toHaveLength(months);
    expect(result.stdout).toMatch(/demo data set .* loaded in/);
  }, 120_000);
});
