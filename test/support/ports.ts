/** Loopback ports for the real servers tests start (nginx, haproxy, varnishd, pgbouncer, replicas). */
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 now (the OS picks it; a race with another process is unlikely). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
