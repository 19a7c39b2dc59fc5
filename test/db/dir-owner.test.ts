/**
 * One process owns an embedded data directory, with real processes: while `src/main.ts` runs, a
 * second server is refused with one line naming the owner and the keys CLI goes through the
 * server; an owner publishing no connection URL refuses the CLI with one line; a server killed
 * with SIGKILL leaves a stale lock that the next start takes over.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/db/dir-lock.js';
import { killStarted, run, start, startServer } from '../support/processes.js';

describe('an embedded data directory has one owning process', () => {
  let root: string;
  let dir: string;
  let env: Record<string, string>;
  // The directory's creation (initdb, the slowest step of the embedded engine) and a first key are
  // set up once here, so each test spends its time on the processes that contend for the directory.
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dir-owner-'));
    dir = join(root, 'pglite');
    env = { PGLITE_DIR: dir, SEED_DEMO: 'false' };
    expect((await run('src/cli/migrate.ts', [], env)).code).toBe(0);
    const first = await run('src/cli/keys.ts', ['create', 'k1'], env);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/Created key 1/) });
  });
  afterAll(() => {
    killStarted();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a second server while the server runs, lets the keys CLI in through it, and loses nothing', async () => {
    const server = await startServer(env);
    try {
      const owner = `is in use by \`src/main.ts\` (pid ${server.pid}, since `;
      const keys = await run('src/cli/keys.ts', ['create', 'k3'], env);
      expect(keys).toMatchObject({ code: 0, stdout: expect.stringMatching(/Created key 2 \(k3\)/) });

      const second = await run('src/main.ts', [], { ...env, PORT: '0', LOG_LEVEL: 'silent' });
      expect(second.code).not.toBe(0);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toContain(owner);

      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const list = await run('src/cli/keys.ts', ['list'], env);
    expect(list.code).toBe(0);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[1]),
    ).toEqual(['k1', 'k3']);
  });

  it('refuses the keys CLI with one line while the owner publishes no connection URL', async () => {
    const holder = start('test/support/lock-taker.ts', [dir, '60000'], {});
    try {
      await holder.waitFor(/won/);
      const keys = await run('src/cli/keys.ts', ['list'], env);
      expect(keys.code).not.toBe(0);
      expect(keys.stdout).toBe('');
      expect(keys.stderr.trim().split('\n')).toHaveLength(1);
      expect(keys.stderr).toContain(`The embedded database in ${dir} is in use by \`test/support/lock-taker.ts`);
      expect(keys.stderr).toContain('stop it first, or point DATABASE_URL at PostgreSQL');
    } finally {
      holder.child.kill('SIGTERM');
      await holder.exited;
    }
  });

  it('takes over the stale lock of a server killed with SIGKILL', async () => {
    const killed = await startServer(env);
    killed.child.kill('SIGKILL');
    await killed.exited;
    const stale = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };
    expect(stale.pid).toBe(killed.pid);

    const next = await startServer(env);
    try {
      expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: next.pid });
      expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
    } finally {
      next.child.kill('SIGTERM');
      await next.exited;
    }
  });
});
