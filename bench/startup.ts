import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** Seconds from spawn to the first `/healthz` 200 and to the ready line of a start. */
export interface StartupTimes {
  readonly firstAnswer: number;
  readonly ready: number;
}

/** A TCP port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resolves once `url` answers 200, polling every 20 ms. */
async function firstOk(url: string, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Starts `npm start`'s entry point (`args`, default the compiled `dist/src/main.js`, as `npm start`
 * runs it: build first) as a child process on a free port with the given environment and measures
 * the seconds until `/healthz` first answers 200 and until it prints that it is ready (`is up`),
 * then stops it with SIGTERM and waits for it to exit.
 */
export async function timeStartup(
  env: Record<string, string>,
  timeoutMs = 180_000,
  args = ['dist/src/main.js'],
): Promise<StartupTimes> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let exited = false;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const gone = new Promise((r) => child.once('exit', r));
  void gone.then(() => (exited = true));
  try {
    const answered = firstOk(`http://127.0.0.1:${port}/healthz`, () => exited).then(
      () => (performance.now() - started) / 1000,
    );
    const ready = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('start-up timed out')), timeoutMs);
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('is up')) {
          clearTimeout(timer);
          resolve((performance.now() - started) / 1000);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr.slice(-500)}`)));
    });
    return { firstAnswer: await answered, ready };
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      await gone;
    }
  }
}
