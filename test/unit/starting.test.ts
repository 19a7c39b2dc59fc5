import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadSteps, statusProgress } from '../../src/bootstrap.js';
import { STARTING_PAGE_REFRESH_S, startingResponse, startupGate } from '../../src/http/starting.js';

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

function request(url: string, headers: Record<string, string> = {}): IncomingMessage {
  return Object.assign(Readable.from([]), { url, headers }) as unknown as IncomingMessage;
}

function response(): ServerResponse & { done: Promise<{ status: number; body: string }> } {
  let resolve: (v: { status: number; body: string }) => void = () => {};
  let status = 0;
  const done = new Promise<{ status: number; body: string }>((r) => (resolve = r));
  return { done, writeHead: (s: number) => (status = s), end: (body: string) => resolve({ status, body }) } as never;
}

describe('a browser while the server starts', () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  it.each(['/', '/index.html'])('gets a page at %s naming the current step that reloads itself', async (path) => {
    const res = startingResponse(path, 'loading demo data: building indexes', browser);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
      503,
      'text/html; charset=utf-8',
      'no-store',
    ]);
    const html = await res.text();
    expect(html).toContain('<p class="step" id="step">loading demo data: building indexes</p>');
    expect(html).toContain(`<meta http-equiv="refresh" content="${STARTING_PAGE_REFRESH_S}">`);
  });

  it('escapes the step it names', async () => {
    const html = await startingResponse('/', '<b>"x" & y</b>', browser).text();
    expect(html).toContain('&#60;b&#62;&#34;x&#34; &#38; y&#60;/b&#62;');
  });

  it.each([
    ['/api/v1/prices', browser],
    ['/graphql', browser],
    ['/', 'application/json'],
    ['/', '*/*'],
  ])('keeps the JSON 503 for %s with Accept %s', async (path, accept) => {
    const res = startingResponse(path, 'opening the database', accept);
    expect([res.status, res.headers.get('content-type')]).toEqual([503, 'application/json; charset=utf-8']);
  });
});

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
    const page = response();
    void gate.handler(request('/', { accept: 'text/html' }), page);
    expect((await page.done).body).toContain('loading demo data: 2025-11 (3/15 months)');
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
      'loading demo data: every month loaded',
    ]);
  });
});

describe('the steps after the demo load as a start-up status', () => {
  it('names each step as it begins and prints it with its time when done', () => {
    const seen: string[] = [];
    const printed: string[] = [];
    const step = loadSteps(
      (d) => seen.push(d),
      (l) => printed.push(l),
    );
    step('building indexes', null);
    step('building indexes', 2449);
    step('refreshing statistics', null);
    step('refreshing statistics', 50);
    expect(seen).toEqual(['loading demo data: building indexes', 'loading demo data: refreshing statistics']);
    expect(printed).toEqual([
      'demo data: building indexes done in 2.4 s',
      'demo data: refreshing statistics done in 0.1 s',
    ]);
  });
});
