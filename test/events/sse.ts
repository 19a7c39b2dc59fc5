/** A GraphQL subscription client over Server-Sent Events (Yoga's transport), for tests. */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One open subscription stream. */
export interface SseStream {
  readonly response: Response;
  /** The next `next` event's payload (`{ data, errors }`), or `complete` when the server ended the stream. */
  next(timeoutMs?: number): Promise<{ data?: any; errors?: any[] } | 'complete'>;
  /** Leaves the stream (the client goes away). */
  close(): void;
}

/** The fetch of an app (`yoga.fetch`) or of a listening server (global fetch with a base URL). */
export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** Opens `query` as an SSE subscription on `/graphql`. */
export async function subscribe(
  fetcher: Fetcher,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetcher('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pending: string[] = [];
  const readEvent = async (): Promise<string> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.split('\n').some((l) => l.startsWith('event:'))) return block;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return 'event: complete';
      buffer += value;
    }
  };
  return {
    response,
    async next(timeoutMs = 5_000) {
      const block = pending.shift() ?? (await withTimeout(readEvent(), timeoutMs));
      const type = /^event: ?(.*)$/m.exec(block)?.[1];
      if (type === 'complete') return 'complete';
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.replace(/^data: ?/, ''))
        .join('\n');
      return JSON.parse(data);
    },
    close: () => controller.abort(),
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no event within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Serves `handler` on a loopback port; the fetcher sends to it (a client leaving closes its connection). */
export async function listen(handler: RequestListener): Promise<{ fetcher: Fetcher; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    fetcher: (url, init) => fetch(`http://127.0.0.1:${port}${url}`, init),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
