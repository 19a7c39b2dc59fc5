import { spawn } from 'node:child_process';

/**
 * Starts `npm start`'s entry point as a child process with the given environment and resolves with
 * the seconds until it prints its URLs, then stops it with SIGTERM and waits for it to exit.
 */
export async function timeStartup(env: Record<string, string>, timeoutMs = 180_000): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('start-up timed out')), timeoutMs);
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('is up')) {
          clearTimeout(timer);
          resolve((performance.now() - started) / 1000);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr.slice(-500)}`)));
    });
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}
