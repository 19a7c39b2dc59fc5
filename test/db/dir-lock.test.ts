/**
 * The lock of an embedded data directory, in this process: acquired exclusively, released on
 * close, a dead owner's lock taken over, a live or foreign owner refused with one line naming it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client.js';
import { run } from '../support/processes.js';
import { acquireDirLock, DirectoryInUseError, LOCK_FILE, type LockOwner } from '../../src/db/dir-lock.js';

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function writeLock(dir: string, owner: Partial<LockOwner>): void {
  const full = {
    pid: 1,
    hostname: hostname(),
    startedAt: '2025-01-01T00:00:00.000Z',
    command: 'src/main.ts',
    ...owner,
  };
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify(full));
}

const refusalOf = (fn: () => unknown): DirectoryInUseError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DirectoryInUseError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('data directory lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dir-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a lock naming this process and removes it on release', () => {
    const lock = acquireDirLock(dir);
    const stored = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockOwner;
    expect(stored).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(Date.parse(stored.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireDirLock(dir).release();
  });

  it('refuses a second open of the same directory in this process', () => {
    const lock = acquireDirLock(dir);
    try {
      expect(refusalOf(() => acquireDirLock(join(dir, '.'))).message).toMatch(/already open in this process/);
    } finally {
      lock.release();
    }
  });

  it('refuses a directory held by a live process with one line naming it and what to do', () => {
    writeLock(dir, { pid: process.ppid, command: 'src/main.ts' });
    const error = refusalOf(() => acquireDirLock(dir));
    expect(error.message).toBe(
      `The embedded database in ${dir} is in use by \`src/main.ts\` (pid ${process.ppid}, since 2025-01-01T00:00:00.000Z): stop it first, or point DATABASE_URL at PostgreSQL`,
    );
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('takes over the lock of a dead process of this host', () => {
    writeLock(dir, { pid: deadPid() });
    const lock = acquireDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('of processes racing to take over one stale lock, exactly one wins and the others name it', async () => {
    writeLock(dir, { pid: deadPid() });
    const takers = await Promise.all(
      Array.from({ length: 4 }, () => run('test/support/lock-taker.ts', [dir, '4000'], {})),
    );
    const outputs = takers.map((t) => t.stdout.trim());
    expect(outputs.filter((o) => o === 'won')).toHaveLength(1);
    for (const output of outputs.filter((o) => o !== 'won'))
      expect(output).toMatch(/^refused: .* is in use by `test\/support\/lock-taker\.ts /);
  });

  it('refuses a lock of another host, whose process it cannot check, saying which file to delete', () => {
    writeLock(dir, { pid: deadPid(), hostname: 'elsewhere' });
    expect(refusalOf(() => acquireDirLock(dir)).message).toMatch(
      /pid \d+ on host elsewhere.*if it no longer runs, delete .*eumarket-api\.lock/,
    );
  });

  it('openPglite holds the lock while open and releases it on close; memory:// takes none', async () => {
    const db = await openPglite(dir);
    try {
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
      await expect(openPglite(dir)).rejects.toThrow(DirectoryInUseError);
    } finally {
      await db.close();
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const memory = await openPglite('memory://');
    await memory.close();
  });
});
