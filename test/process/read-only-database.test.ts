/**
 * An instance whose database is read-only (a hot standby, or `default_transaction_read_only` on:
 * here a scratch database created on the test server with that default) refuses to start, and so do
 * the command-line tools, in one line naming the setting and where the replica belongs
 * (DATABASE_READ_URL), instead of serving data its caches never learn has changed. PostgreSQL leg only.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openServerDatabase } from '../../src/db/server-database.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { killStarted, run, start } from '../support/processes.js';

const READ_ONLY =
  /DATABASE_URL leads to a read-only database .*point DATABASE_URL at the primary server and list replicas in DATABASE_READ_URL/;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe.runIf(TEST_DATABASE_URL)('a read-only database', () => {
  const name = `read_only_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let url: string;

  beforeAll(async () => {
    await admin(async (client) => {
      await client.query(`CREATE DATABASE ${name}`);
      await client.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    });
    const target = new URL(TEST_DATABASE_URL!);
    target.pathname = `/${name}`;
    url = target.toString();
  }, 30_000);

  afterAll(async () => {
    killStarted();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });

  it('as DATABASE_URL: the server exits 1 at start, saying so and where to point it', async () => {
    const server = start('src/main.ts', [], { PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: url });
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toMatch(READ_ONLY);
    expect(server.output()).not.toMatch(/Ready: /);
  }, 60_000);

  it.each([
    ['db:migrate', 'src/cli/migrate.ts', []],
    ['db:seed', 'src/cli/seed.ts', []],
    ['keys', 'src/cli/keys.ts', ['create', 'ro']],
    ['ingest', 'src/cli/ingest.ts', ['--from', '2025-10-01', '--to', '2025-10-02']],
  ] as const)(
    'as DATABASE_URL: npm run %s refuses in one line and exits 1',
    async (script, file, args) => {
      const result = await run(file, args, {
        DATABASE_URL: url,
        ENTSOE_SECURITY_TOKEN: 'unused',
        DEMO_HISTORY_DAYS: '1',
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^${script}(?: failed)?: ${READ_ONLY.source}`));
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    },
    60_000,
  );

  it('as DATABASE_DIRECT_URL beside a writable DATABASE_URL: the start is refused, naming DATABASE_DIRECT_URL', async () => {
    const config = testConfig({ DATABASE_URL: TEST_DATABASE_URL!, DATABASE_DIRECT_URL: url });
    await expect(openServerDatabase(config).then(({ db }) => db.close())).rejects.toThrow(
      /DATABASE_DIRECT_URL leads to a read-only database/,
    );
  });
});
