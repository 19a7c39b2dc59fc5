/**
 * Runs the project's npm scripts as real child processes, each in its own process group so a test
 * can tell when the whole tree (npm, shell, node) has exited.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHILD_PATH } from '../support/env.js';

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** HOME of the children: empty, so no user npm configuration applies and npm's logs stay out of the project. */
const HOME = mkdtempSync(join(tmpdir(), 'eumarket-child-home-'));

/** A child process with its output so far. */
export interface Child {
  readonly process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the child has exited. */
  readonly exited: Promise<number | string>;
}

/** Spawns `command args` in ROOT as the leader of a new process group, with PATH plus `env` only. */
export function start(command: string, args: readonly string[], env: Record<string, string> = {}): Child {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: CHILD_PATH, HOME, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { process: child, stdout: () => out, stderr: () => err, exited };
}

/** Runs to completion; resolves with the exit code and the output. */
export async function run(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const child = start(command, args, env);
  const code = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

/** Whether any process of the group led by `pid` is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills whatever is left of the group led by `pid`. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Polls `predicate` every 50 ms; resolves true as soon as it holds, false after `ms`. */
export async function within(ms: number, predicate: () => boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return predicate();
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
