/**
 * One process owns an embedded data directory: a lock file inside it names the owner (pid,
 * hostname, start time, command). It is created atomically (a hard link of a complete temporary
 * file, which fails when the lock exists), taken over when its owner is a dead process on this
 * host, and removed on release or process exit. A process killed hard leaves its lock behind;
 * the next opener sees the pid is gone and takes it over.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** Name of the lock file inside the data directory. */
export const LOCK_FILE = 'eumarket-api.lock';

/** Who holds a data directory. `startedAt` is an ISO UTC instant. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly startedAt: string;
  readonly command: string;
}

/** A held lock; `release` removes the file if it still names this process (idempotent). */
export interface DirLock {
  readonly path: string;
  readonly owner: LockOwner;
  release(): void;
}

/** Another process (or this one) holds the directory; the message says what to do, on one line. */
export class DirectoryInUseError extends Error {
  constructor(
    message: string,
    readonly owner: LockOwner | null,
  ) {
    super(message);
    this.name = 'DirectoryInUseError';
  }
}

/** A takeover marker older than this (ms) was left by a process that died while taking over. */
const STALE_TAKEOVER_MS = 10_000;
/** An unreadable lock file older than this (ms) is treated as stale. */
const STALE_UNREADABLE_MS = 10_000;

const heldHere = new Map<string, DirLock>();

function commandOf(argv: readonly string[]): string {
  const [, script, ...args] = argv;
  if (!script) return 'node';
  const shown = relative(process.cwd(), script) || script;
  return [shown.startsWith('..') ? script : shown, ...args].join(' ');
}

function currentOwner(): LockOwner {
  return {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: commandOf(process.argv),
  };
}

function parseOwner(text: string): LockOwner | null {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.hostname !== 'string') return null;
    return {
      pid: owner.pid,
      hostname: owner.hostname,
      startedAt: String(owner.startedAt ?? ''),
      command: String(owner.command ?? '?'),
    };
  } catch {
    return null;
  }
}

/** The lock file's text, or null when there is none. */
function readLock(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether a process with this pid runs on this host (EPERM: it runs under another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether `owner` certainly no longer holds the directory (a lock of this very process is not stale). */
function isStale(path: string, key: string, owner: LockOwner | null): boolean {
  if (owner === null) return ageMs(path) > STALE_UNREADABLE_MS;
  if (owner.hostname !== hostname()) return false;
  if (owner.pid === process.pid) return !heldHere.has(key);
  return !processAlive(owner.pid);
}

/** Creates `path` holding `text`, atomically and only if it does not exist. @returns false when it exists. */
function createExclusive(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, text, { flag: 'wx' });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function removeIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Removes the stale lock whose content is `seen`, under a takeover marker so that of two processes
 * taking over the same stale lock, only one removes it (the other could otherwise remove the fresh
 * lock of the first). @returns false when another process is taking over right now.
 */
function removeStale(path: string, seen: string): boolean {
  const marker = `${path}.takeover`;
  if (ageMs(marker) > STALE_TAKEOVER_MS) removeIfExists(marker);
  if (!createExclusive(marker, String(process.pid))) return false;
  try {
    if (readLock(path) === seen) unlinkSync(path);
    return true;
  } finally {
    removeIfExists(marker);
  }
}

function describe(owner: LockOwner): string {
  const host = owner.hostname === hostname() ? '' : ` on host ${owner.hostname}`;
  const since = owner.startedAt ? `, since ${owner.startedAt}` : '';
  return `\`${owner.command}\` (pid ${owner.pid}${host}${since})`;
}

function refusal(dir: string, path: string, owner: LockOwner | null): DirectoryInUseError {
  const where = `The embedded database in ${dir}`;
  if (owner === null) {
    return new DirectoryInUseError(
      `${where} is being opened by another process (lock file ${path}): try again, or delete that file if no process uses the directory`,
      null,
    );
  }
  if (owner.pid === process.pid && owner.hostname === hostname()) {
    return new DirectoryInUseError(`${where} is already open in this process: close it first`, owner);
  }
  const remedy =
    owner.hostname === hostname()
      ? 'stop it first, or point DATABASE_URL at PostgreSQL'
      : `stop it first (if it no longer runs, delete ${path}), or point DATABASE_URL at PostgreSQL`;
  return new DirectoryInUseError(`${where} is in use by ${describe(owner)}: ${remedy}`, owner);
}

/**
 * Makes this process the one owner of the data directory `dir` (which must exist), taking over a
 * lock left by a dead process of this host.
 * @throws DirectoryInUseError when a live process (or this one) holds it, or its owner runs on
 *   another host (its liveness cannot be checked from here).
 */
export function acquireDirLock(dir: string): DirLock {
  const key = resolve(dir);
  const path = join(dir, LOCK_FILE);
  const owner = currentOwner();
  const text = `${JSON.stringify(owner, null, 2)}\n`;
  let holder: LockOwner | null = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(path, text)) return register(key, path, owner);
    const seen = readLock(path);
    if (seen === null) continue;
    holder = parseOwner(seen);
    if (!isStale(path, key, holder)) break;
    removeStale(path, seen);
  }
  throw refusal(dir, path, holder);
}

function register(key: string, path: string, owner: LockOwner): DirLock {
  const onExit = () => lock.release();
  const lock: DirLock = {
    path,
    owner,
    release() {
      process.off('exit', onExit);
      if (heldHere.get(key) !== lock) return;
      heldHere.delete(key);
      const text = readLock(path);
      const current = text === null ? null : parseOwner(text);
      if (current?.pid === owner.pid && current.startedAt === owner.startedAt) removeIfExists(path);
    },
  };
  heldHere.set(key, lock);
  process.on('exit', onExit);
  return lock;
}
