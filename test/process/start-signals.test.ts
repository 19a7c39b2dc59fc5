/**
 * `npm start` as an operator runs it: a real npm process (which builds, then runs the compiled
 * server), stopped with SIGTERM or SIGINT sent to npm alone. The whole process tree must exit
 * within a few seconds and the port must be closed. The build serves what the sources serve.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Child, groupAlive, killGroup, listening, start, within } from './children.js';

const ENV = { PORT: '0', PGLITE_DIR: 'memory://', SEED_DEMO: 'false', LOG_LEVEL: 'warn' };

async function untilUp(child: Child, ms: number): Promise<number> {
  const up = await within(ms, () => /REST API: +http:\/\/[^:]+:\d+\//.test(child.stdout()) || child.process.exitCode !== null);
  const port = /REST API: +http:\/\/[^:]+:(\d+)\//.exec(child.stdout())?.[1];
  if (!up || !port) throw new Error(`npm start did not print its URLs:\n${child.stdout()}\n${child.stderr()}`);
  return Number(port);
}

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
  }, 180_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('stops the whole process tree and closes the port on %s sent to npm', async (signal) => {
    child = start('npm', ['start'], ENV);
    const pid = child.process.pid!;
    const port = await untilUp(child, 120_000);
    expect(await listening(port)).toBe(true);

    process.kill(pid, signal);
    expect(await within(5_000, () => !groupAlive(pid))).toBe(true);
    expect(await listening(port)).toBe(false);
    expect(child.stderr()).not.toMatch(/Error|ERR!/);
  }, 180_000);
});
