/** Servers of the bench on a free loopback port. */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on loopback: its base URL (`http://127.0.0.1:<port>`) and how to stop it. */
export interface Loopback {
  readonly base: string;
  /** Ends open connections, closes the server, then releases what it served from. */
  close(): Promise<void>;
}

/** Listens with `handler` on a free loopback port; `release` runs after the server has closed. */
export async function listenOnLoopback(
  handler: RequestListener,
  release: () => Promise<unknown> = async () => undefined,
): Promise<Loopback> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await release();
    },
  };
}
