/**
 * Real processes of the service for end-to-end tests: `src/main.ts` and the CLIs run by node with
 * tsx's loader (one process, so its pid is the one signalled and the one owning a data directory),
 * from the repository root, configured by their environment only.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHILD_PATH } from './env.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NODE_ARGS = ['--import', 'tsx'];

/** A running child process with what it wrote so far. */
export interface Running {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the output matches `pattern`; rejects if the process exits first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
}

const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every process started by {@link start} that still runs: for afterAll, so a failed test leaves none behind. */
export function killStarted(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
}

/** Starts `node --import tsx <script> ...args` with only PATH, no shutdown drain (`SHUTDOWN_DRAIN_SECONDS=0`) and `env` in its environment. */
export function start(script: string, args: readonly string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [...NODE_ARGS, script, ...args], {
    cwd: ROOT,
    env: { PATH: CHILD_PATH, SHUTDOWN_DRAIN_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
      for (const listener of listeners) listener();
    });
  });
  let done = false;
  void exited.then(() => (done = true));
  const waitFor = (pattern: RegExp, ms = 120_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}; output:\n${text}`)), ms);
      const check = () => {
        const match = text.match(pattern);
        if (match) finish(null, match);
        else if (done || child.exitCode !== null || child.signalCode !== null)
          finish(new Error(`exited before ${pattern}; output:\n${text}`));
      };
      function finish(error: Error | null, match?: RegExpMatchArray) {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve(match as RegExpMatchArray);
      }
      listeners.add(check);
      check();
    });
  return { child, pid: child.pid as number, output: () => text, exited, waitFor };
}

/** The line the server prints on stdout once it serves the API (it listens earlier, answering 503). */
export const READY_LINE = /^Ready: /m;

/** Starts the server on a free port and resolves with its base URL once it is ready. */
export async function startServer(env: Record<string, string>): Promise<Running & { url: string }> {
  const server = start('src/main.ts', [], { PORT: '0', LOG_LEVEL: 'silent', ...env });
  const [, url] = await server.waitFor(/REST API:\s+(http:\/\/[^/\s]+)\//);
  await server.waitFor(READY_LINE);
  return Object.assign(server, { url: url as string });
}

/** Runs `node --import tsx <script> ...args` to completion. */
export function run(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...NODE_ARGS, script, ...args],
      { cwd: ROOT, env: { PATH: CHILD_PATH, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
