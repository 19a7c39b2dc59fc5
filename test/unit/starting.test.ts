import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { statusProgress } from '../../src/bootstrap.js';
import { startingResponse, startupGate } from '../../src/http/starting.js';

describe('the server while it starts', () => {
  it('is alive: /healthz answers 200', async () => {
    const res = startingResponse('/healthz/', 'loading demo data: 2025-11 (3/15 months)');
    expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('is not ready: /readyz answers 503 with what is being done', async () => {
    const res = startingResponse('/readyz', 'loading demo data: 2025-11 (3/15 months)');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'starting', detail: 'loading demo data: 2025-11 (3/15 months)' });
  });

  it.each(['/api/v1/prices', '/graphql', '/', '/nowhere'])(
    'answers %s with a JSON 503 and Retry-After',
    async (path) => {
      const res = startingResponse(path, 'opening the database');
      expect([res.status, res.headers.get('retry-after'), res.headers.get('content-type')]).toEqual([
        503,
        '5',
        'application/json; charset=utf-8',
      ]);
      expect(await res.json()).toEqual({ detail: 'The service is starting (opening the database); retry shortly' });
    },
  );
});

function request(url: string): IncomingMessage {
  return Object.assign(Readable.from([]), { url }) as unknown as IncomingMessage;
}

function response(): ServerResponse & { done: Promise<{ status: number; body: string }> } {
  let resolve: (v: { status: number; body: string }) => void = () => {};
  let status = 0;
  const done = new Promise<{ status: number; body: string }>((r) => (resolve = r));
  return { done, writeHead: (s: number) => (status = s), end: (body: string) => resolve({ status, body }) } as never;
}

describe('the start-up gate', () => {
  it('answers with the latest detail until it is opened, then hands requests to the app', async () => {
    const gate = startupGate('opening the database');
    gate.setDetail('loading demo data: 2025-11 (3/15 months)');
    const starting = response();
    void gate.handler(request('/readyz?x=1'), starting);
    expect(await starting.done).toEqual({
      status: 503,
      body: JSON.stringify({ status: 'starting', detail: 'loading demo data: 2025-11 (3/15 months)' }),
    });
    const served: string[] = [];
    gate.open((req) => served.push(req.url ?? ''));
    void gate.handler(request('/api/v1/prices'), response());
    expect(served).toEqual(['/api/v1/prices']);
  });
});

describe('the demo load as a start-up status', () => {
  it('names the month being loaded and how many are done, then the commit', () => {
    const seen: string[] = [];
    const progress = statusProgress((d) => seen.push(d));
    progress.start(3, 0);
    progress.begin('demo data 2025-10: prices, flows, rollups');
    progress.end('demo data 2025-10: prices, flows, rollups', { rows: 1 });
    progress.begin('demo data 2025-11: prices, flows, rollups');
    progress.finish();
    expect(seen).toEqual([
      'loading demo data: 3 month(s) to load',
      'loading demo data: 2025-10 (1/3 months)',
      'loading demo data: 2025-11 (2/3 months)',
      'loading demo data: building indexes and rollups, committing, refreshing statistics',
    ]);
  });
});
