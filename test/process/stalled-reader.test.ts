/**
 * SIGTERM while a client has stopped reading a large response: after the drain the server cuts the
 * connections still busy once their grace is over and exits 0, not 1 at its last-resort timer.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { killStarted, startServer } from '../support/processes.js';

afterAll(killStarted);

describe('shutdown with a reader that stopped reading', () => {
  it('exits 0 soon after the drain, the stalled connection cut', async () => {
    const server = await startServer({ PGLITE_DIR: 'memory://', SEED_DEMO: 'false', SHUTDOWN_DRAIN_SECONDS: '1' });
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause();
    // One SSE event of about 5 MB, more than the kernel's socket buffers hold.
    const types =
      '__schema { types { name description fields { name description args { name description type { name } } } } }';
    const body = JSON.stringify({ query: `{ ${Array.from({ length: 120 }, (_, i) => `a${i}: ${types}`).join(' ')} }` });
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    let closedByServer = false;
    socket.on('close', () => (closedByServer = true));
    await new Promise((r) => setTimeout(r, 1_000));
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const took = Date.now() - started;
    expect(took).toBeLessThan(10_500);
    socket.resume();
    await new Promise((r) => setTimeout(r, 200));
    expect(closedByServer || socket.destroyed).toBe(true);
    socket.destroy();
  }, 120_000);
});
