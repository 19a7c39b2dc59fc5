/**
 * The shutdown drain of the real server: after SIGTERM it fails /readyz and keeps serving (on a
 * kept-alive connection too) for SHUTDOWN_DRAIN_SECONDS, then closes; a second signal ends the
 * drain at once.
 */
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { killStarted, startServer } from '../support/processes.js';

afterAll(killStarted);

function get(url: string, agent: Agent): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the shutdown drain', () => {
  it('answers /readyz 503 draining while serving the API after SIGTERM, and stops at a second signal', async () => {
    const server = await startServer({ PGLITE_DIR: 'memory://', SEED_DEMO: 'false', SHUTDOWN_DRAIN_SECONDS: '60' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(`${server.url}/readyz`, agent)).status).toBe(200);
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const ready = await get(`${server.url}/readyz`, agent);
    expect([ready.status, JSON.parse(ready.body).status]).toEqual([503, 'draining']);
    const api = await get(`${server.url}/api/v1/zones`, agent);
    expect([api.status, api.connection]).toEqual([200, 'keep-alive']);
    const started = Date.now();
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);
    agent.destroy();
  }, 120_000);
});
