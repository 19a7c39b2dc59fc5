/**
 * The connection URL a server publishes in the data directory it owns, so that the other
 * processes (the CLIs, `psql`) reach the embedded database through it. The file names the
 * owner's pid: it counts only while that process holds the directory's lock.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Name of the file beside the lock file. */
export const URL_FILE = 'eumarket-api.server.json';

interface Published {
  readonly pid: number;
  readonly url: string;
}

/**
 * Writes `url` into `dir` for this process (atomically) and removes it on process exit.
 * @returns a function removing it (idempotent).
 */
export function publishUrl(dir: string, url: string): () => void {
  const path = join(dir, URL_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ pid: process.pid, url } satisfies Published, null, 2)}\n`);
  renameSync(temp, path);
  const remove = () => {
    process.off('exit', remove);
    if (publishedUrl(dir, process.pid) !== null) rmSync(path, { force: true });
  };
  process.on('exit', remove);
  return remove;
}

/** The URL published in `dir` by the process `ownerPid`, or null when it published none. */
export function publishedUrl(dir: string, ownerPid: number): string | null {
  try {
    const published = JSON.parse(readFileSync(join(dir, URL_FILE), 'utf8')) as Partial<Published>;
    return published.pid === ownerPid && typeof published.url === 'string' ? published.url : null;
  } catch {
    return null;
  }
}
