import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** A large page: thousands of hourly flow rows (megabytes of JSON), more than loopback buffers hold. */
const BIG_PAGE = '/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-11-03&resolution=1H&limit=20000';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The block's app (engine and seed from its `it.override`) with `env`, served on a loopback port for
 * the block; `sockets` are destroyed after it.
 */
function servedApp(env: Record<string, number>) {
  const served = { base: '', port: 0, sockets: [] as Socket[] };
  const t = blockApp(it, { config: { ...env, TRUST_PROXY_HOPS: 1 } });
  let server: Server;
  const listening = blockSetup(async () => {
    for (const s of served.sockets) s.destroy();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  });
  it.beforeEach(() =>
    listening.run(async () => {
      server = createServer(t.app.yoga);
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      served.port = (server.address() as { port: number }).port;
      served.base = `http://127.0.0.1:${served.port}`;
    }),
  );
  return served;
}

/** The status of `path` asked of `served` as `address`, its body read. */
async function statusOf(served: { readonly base: string }, path: string, address: string): Promise<number> {
  const res = await fetch(`${served.base}${path}`, { headers: { 'x-forwarded-for': address } });
  await res.arrayBuffer();
  return res.status;
}

describe.each(TEST_BACKENDS)('work in flight bounded per client and per instance (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const served = servedApp({
    INFLIGHT_PER_CLIENT: 3,
    INFLIGHT_PER_INSTANCE: 5,
    IDLE_WRITE_TIMEOUT_MS: 600_000,
  });
  const sockets = served.sockets;

  /** Sends a request for the big page as `address` and never reads the answer. */
  function nonReader(address: string): void {
    const socket = connect(served.port, '127.0.0.1', () => {
      socket.write(`GET ${BIG_PAGE} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${address}\r\n\r\n`);
      socket.pause();
    });
    socket.on('error', () => undefined);
    sockets.push(socket);
  }

  const get = (path: string, address: string) =>
    fetch(`${served.base}${path}`, { headers: { 'x-forwarded-for': address } });

  it('refuses a client past its cap with 429 and the instance past its cap with 503, keeps /healthz fast, and frees the slots of clients that left', async () => {
    for (let i = 0; i < 3; i += 1) nonReader('192.0.2.1');
    for (let i = 0; i < 2; i += 1) nonReader('192.0.2.2');
    await sleep(1_000);
    const own = await get('/api/v1/zones', '192.0.2.1');
    expect(own.status).toBe(429);
    expect(own.headers.get('retry-after')).toBe('1');
    await own.arrayBuffer();
    const other = await get('/api/v1/zones', '192.0.2.3');
    expect(other.status).toBe(503);
    expect(other.headers.get('retry-after')).toBe('1');
    await other.arrayBuffer();
    const started = performance.now();
    const health = await fetch(`${served.base}/healthz`);
    expect(health.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    await health.arrayBuffer();
    // The non-readers leave: their slots are free again.
    for (const s of sockets) s.destroy();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      const res = await get('/api/v1/zones', '192.0.2.1');
      status = res.status;
      await res.arrayBuffer();
      if (status === 200) break;
      await sleep(200);
    }
    expect(status).toBe(200);
  });
});

describe.each(TEST_BACKENDS)('pages weighed by the rows they ask for (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const served = servedApp({
    INFLIGHT_PER_CLIENT: 5,
    INFLIGHT_PER_INSTANCE: 100,
    IDLE_WRITE_TIMEOUT_MS: 600_000,
  });
  const sockets = served.sockets;

  /** Asks for `path` as `address` and never reads; resolves with the status line's code once it came (or '' at close). */
  function nonReader(path: string, address: string): Promise<string> {
    const socket = connect(served.port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${address}\r\n\r\n`),
    );
    socket.on('error', () => undefined);
    sockets.push(socket);
    return new Promise((done) => {
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        done(chunk.toString('latin1', 9, 12));
      });
      socket.once('close', () => done(''));
    });
  }

  it('counts a page of 20,000 rows as 5 requests from the moment it is accepted', async () => {
    expect(await nonReader(BIG_PAGE, '192.0.2.30')).toBe('200');
    // 5 slots held, this client's cap: even a small request waits; another client is served.
    expect(await statusOf(served, '/api/v1/zones', '192.0.2.30')).toBe(429);
    expect(await statusOf(served, '/api/v1/zones', '192.0.2.31')).toBe(200);
  });
});

describe.each(TEST_BACKENDS)('responses whose client stops reading are ended (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const IDLE_MS = 2_000;
  const served = servedApp({
    INFLIGHT_PER_CLIENT: 3,
    INFLIGHT_PER_INSTANCE: 50,
    IDLE_WRITE_TIMEOUT_MS: IDLE_MS,
  });
  const sockets = served.sockets;

  /** Requests the big page as `address`; `pauseMs` > 0 stops reading for `pauseMs` after every 16th chunk, 0 never reads. */
  function client(address: string, pauseMs: number): { closed: Promise<{ bytes: number; text: string }> } {
    const socket = connect(served.port, '127.0.0.1');
    sockets.push(socket);
    let bytes = 0;
    let tail = '';
    let chunks = 0;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString('latin1')).slice(-64);
      chunks += 1;
      if (pauseMs > 0 && chunks % 16 === 0) {
        socket.pause();
        setTimeout(() => socket.resume(), pauseMs);
      }
    });
    socket.on('connect', () => {
      socket.write(`GET ${BIG_PAGE} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Forwarded-For: ${address}\r\n\r\n`);
      if (pauseMs === 0) socket.pause();
    });
    return { closed: new Promise((done) => socket.once('close', () => done({ bytes, text: tail }))) };
  }

  it('ends the responses of a client that never reads and gives its slots back while it is still connected', async () => {
    const started = Date.now();
    // One page of 20,000 rows holds 5 slots, past this client's cap of 3.
    const readers = [client('192.0.2.20', 0)];
    let left = false;
    for (const r of readers) void r.closed.then(() => (left = true));
    await sleep(500);
    expect(await statusOf(served, '/api/v1/zones', '192.0.2.20')).toBe(429);
    let status = 429;
    while (status !== 200 && Date.now() - started < 30_000) {
      await sleep(250);
      status = await statusOf(served, '/api/v1/zones', '192.0.2.20');
    }
    expect(status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS);
    // The client never read nor closed: the server ended its responses.
    expect(left).toBe(false);
  });

  it('lets a client that pauses for less than the idle time receive its whole page', async () => {
    const { bytes, text } = await client('192.0.2.21', IDLE_MS / 2).closed;
    expect(text).toMatch(/\}\s*(\r\n0\r\n\r\n)?$/);
    expect(bytes).toBeGreaterThan(1_000_000);
  });
});
