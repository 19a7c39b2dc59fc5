/**
 * `npm run test:mcp-conformance`: the MCP conformance suite (@modelcontextprotocol/conformance)
 * against the built server. Starts `node dist/src/main.js` on MCP_CONFORMANCE_PORT (default 4939)
 * over an in-memory embedded database with two days of demo data, waits until it is ready, runs
 * every server scenario with scripts/mcp-conformance-baseline.yml as the expected failures (the
 * scenarios that call the suite's own fixture tools, resources and prompts, or capabilities this
 * read-only server does not declare), and exits with the suite's code. The suite writes its
 * results/ in a temporary directory. Plain JavaScript: it runs
 * the build first (`npm run build` must have run, or `node scripts/build.mjs --if-stale` does it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PORT = process.env.MCP_CONFORMANCE_PORT ?? '4939';

const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const server = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT,
    HOST: '127.0.0.1',
    PGLITE_DIR: 'memory://',
    DATABASE_URL: '',
    SEED_DEMO: 'true',
    DEMO_HISTORY_DAYS: '2',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CAPACITY: '100000',
    SHUTDOWN_DRAIN_SECONDS: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = new Promise((resolveReady, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    if (/^Ready: /m.test(out)) resolveReady();
  });
  server.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready:\n${out}`)));
  setTimeout(() => reject(new Error('server not ready within 180 s')), 180_000).unref();
});

let code = 1;
try {
  await ready;
  const suite = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
      'server',
      '--url',
      `http://127.0.0.1:${PORT}/mcp`,
      '--expected-failures',
      join(ROOT, 'scripts/mcp-conformance-baseline.yml'),
    ],
    { cwd: mkdtempSync(join(tmpdir(), 'mcp-conformance-')), stdio: 'inherit' },
  );
  code = suite.status ?? 1;
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  server.kill('SIGTERM');
}
process.exit(code);
