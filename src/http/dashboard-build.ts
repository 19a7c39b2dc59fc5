/**
 * The dashboard bundle's build beside a start: `npm start` passes {@link BUILD_DASHBOARD_FLAG} and
 * the server runs `node scripts/build.mjs --if-stale web` (codegen and esbuild, when an input
 * changed) as a child process while the database is prepared, on another core, instead of before
 * it starts. The app is created once it is done (it reads the bundle's persisted-operations
 * manifest); until then `/` answers the start-up page. The child ends with the server.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';

/** The command-line flag of the server (`npm start`) that asks for the build. */
export const BUILD_DASHBOARD_FLAG = '--build-dashboard';

/**
 * How much nicer than the server the build runs (its compilers inherit it): on a machine with fewer idle cores than busy
 * threads, the engine's thread and the demo generation (the path to ready) go first, the build
 * takes what is left; it has the whole database preparation to finish.
 */
const BUILD_NICER_BY = 10;

/** Characters of the build's stderr kept for the error of a failed build (its end). */
const ERROR_TAIL_CHARS = 4_000;

/**
 * Starts the build of `root`'s dashboard; resolves once it is done, at once when `root` has no
 * scripts/build.mjs (a deployed build).
 * @throws Error (rejects) when the build fails, with the end of its stderr.
 */
export function buildDashboardBeside(root: string = PROJECT_ROOT): Promise<void> {
  const script = join(root, 'scripts/build.mjs');
  if (!existsSync(script)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--if-stale', 'web'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (child.pid) lowerPriority(child.pid);
    const stop = () => child.kill();
    process.once('exit', stop);
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      errors = (errors + chunk).slice(-ERROR_TAIL_CHARS);
    });
    child.once('error', (error) => {
      process.off('exit', stop);
      reject(error);
    });
    child.once('close', (status) => {
      process.off('exit', stop);
      if (status === 0) resolve();
      else reject(new Error(`the dashboard build failed (exit ${status}): ${errors.trim()}`));
    });
  });
}

function lowerPriority(pid: number): void {
  try {
    setPriority(pid, Math.min(19, getPriority() + BUILD_NICER_BY));
  } catch {
    // A system refusing it builds at the default priority.
  }
}
