/**
 * The npm scripts as an operator runs them, on the compiled build. `npm start` is a real npm
 * process (which builds, then runs the server) stopped with SIGTERM or SIGINT sent to npm alone:
 * the whole process tree must exit within a few seconds and the port must be closed. The build
 * serves what the sources serve, and each CLI script runs its compiled command line.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../support/raw-http.js';
import { type Child, groupAlive, killGroup, listening, ROOT, run, start, within } from './children.js';

const ENV = { PORT: '0', PGLITE_DIR: 'memory://', SEED_DEMO: 'false', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_SECONDS: '0' };

async function untilUp(child: Child, ms: number): Promise<number> {
  const up = await within(ms, () => /^Ready: /m.test(child.stdout()) || child.process.exitCode !== null);
  const port = /REST API: +http:\/\/[^:]+:(\d+)\//.exec(child.stdout())?.[1];
  if (!up || !port)
    throw new Error(`npm start did not print its URLs and get ready:\n${child.stdout()}\n${child.stderr()}`);
  return Number(port);
}

beforeAll(async () => {
  for (const script of ['build', 'build:bench']) {
    const build = await run('npm', ['run', script, '--silent']);
    if (build.code !== 0) throw new Error(`npm run ${script} failed:\n${build.stdout}${build.stderr}`);
  }
}, 300_000);

describe('the build before every npm script', () => {
  const builtAt = (file: string) => statSync(join(ROOT, file)).mtimeMs;

  it.each([
    ['keys', 'dist/web/index.html'],
    ['bench', 'dist/.bench.stamp'],
  ])('is skipped by npm run %s when dist/ is newer than every input', async (script, output) => {
    const before = builtAt(output);
    const help = await run('npm', ['run', script, '--silent', '--', '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(builtAt(output)).toBe(before);
  });
});

describe('npm start', () => {
  let child: Child | undefined;
  afterEach(() => {
    if (child?.process.pid) killGroup(child.process.pid);
  });

  it('serves the API, its reference page assets and GraphiQL from the build', async () => {
    child = start('npm', ['start'], ENV);
    const base = `http://127.0.0.1:${await untilUp(child, 120_000)}`;
    const css = await fetch(`${base}/api/v1/docs/swagger-ui.css`);
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    const graphiql = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    expect(await graphiql.text()).toContain('GraphiQL');
    const prices = await fetch(`${base}/api/v1/prices?zone=FR`);
    expect(prices.status).toBe(200);
    const oversized = await rawExchange(
      Number(new URL(base).port),
      `GET /api/v1/prices HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(oversized).toMatch(/^HTTP\/1\.1 431 [\s\S]*\r\n\r\n\{"detail":"Request header fields too large/);
  }, 180_000);

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the whole process tree and closes the port on %s sent to npm',
    async (signal) => {
      child = start('npm', ['start'], ENV);
      const pid = child.process.pid!;
      const port = await untilUp(child, 120_000);
      expect(await listening(port)).toBe(true);

      process.kill(pid, signal);
      expect(await within(5_000, () => !groupAlive(pid))).toBe(true);
      expect(await listening(port)).toBe(false);
      expect(child.stderr()).not.toMatch(/Error|ERR!/);
    },
    180_000,
  );
});

describe.each(['keys', 'ingest', 'db:seed', 'db:migrate', 'bench'])('npm run %s', (script) => {
  it('runs the compiled command line: --help exits 0, a wrong option exits 2', async () => {
    const npm = (arg: string) => run('npm', ['run', script, '--silent', '--ignore-scripts', '--', arg]);
    const help = await npm('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^usage: npm run ${script}`));
    expect(await npm('--wrong')).toEqual({
      code: 2,
      stdout: '',
      stderr: `${script}: Unknown option '--wrong' (see npm run ${script} -- --help)\n`,
    });
  });
});
