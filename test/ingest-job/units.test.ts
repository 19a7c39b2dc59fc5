/** Pure parts of the ingestion: window planning, request building, Retry-After, pacing, progress. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntsoeClient, formatPeriod, parseRetryAfter, requestParams } from '../../src/ingest/client.js';
import { EntsoePagingError, fetchPages, PRICE_PAGES } from '../../src/ingest/paging.js';
import { barLine, createProgress, formatDuration } from '../../src/ingest/progress.js';
import { coverageOf, planWindows, subtract, targetsFor } from '../../src/ingest/windows.js';
import { type FakeUpstream, startFakeUpstream, TOKEN } from './fake-upstream.js';
import { a44, EIC, fakeClient, key } from './helpers.js';

const d = (s: string) => new Date(s);
const ms = (s: string) => Date.parse(s);

describe('window planning', () => {
  it('splits a range on UTC years and widens pieces to whole hours', () => {
    const w = planWindows(
      [{ item: 'prices', areaKey: 'ES' }],
      { from: d('2023-06-01T00:30Z'), to: d('2025-02-01') },
      [],
    );
    expect(w.map((x) => [x.start.toISOString(), x.end.toISOString()])).toEqual([
      ['2023-06-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
      ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
      ['2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z'],
    ]);
  });

  it('skips what done windows cover, up to when they finished minus the settling margin', () => {
    const done = {
      item: 'flows' as const,
      areaKey: 'ES->FR',
      start: d('2025-01-01'),
      end: d('2025-01-10'),
      finishedAt: d('2025-01-05T12:00Z'),
    };
    expect(coverageOf(done)).toEqual({ start: ms('2025-01-01'), end: ms('2025-01-05T06:00Z') }); // 6 h margin
    expect(coverageOf({ ...done, item: 'prices', areaKey: 'ES' })).toEqual({
      start: ms('2025-01-01'),
      end: ms('2025-01-05T12:00Z'),
    });
    const w = planWindows([{ item: 'flows', areaKey: 'ES->FR' }], { from: d('2024-12-30'), to: d('2025-01-08') }, [
      done,
    ]);
    expect(w.map((x) => [x.start.toISOString(), x.end.toISOString()])).toEqual([
      ['2024-12-30T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
      ['2025-01-05T06:00:00.000Z', '2025-01-08T00:00:00.000Z'],
    ]);
  });

  it('subtracts overlapping coverage', () => {
    expect(
      subtract({ start: 0, end: 100 }, [
        { start: 10, end: 20 },
        { start: 15, end: 30 },
        { start: 90, end: 120 },
      ]),
    ).toEqual([
      { start: 0, end: 10 },
      { start: 30, end: 90 },
    ]);
  });

  it('selects borders touching the selected zones, and prices for the endpoints of selected borders', () => {
    expect(targetsFor({ what: ['prices', 'flows'], zones: ['ES'] })).toEqual([
      { item: 'prices', areaKey: 'ES' },
      { item: 'flows', areaKey: 'ES->FR' },
      { item: 'flows', areaKey: 'ES->PT' },
    ]);
    expect(targetsFor({ what: ['prices'], borders: ['ES->FR'] }).map((t) => t.areaKey)).toEqual(['ES', 'FR']);
  });
});

describe('requests', () => {
  it('uses the platform names and yyyyMMddHHmm UTC periods', () => {
    const p = requestParams({
      documentType: 'A44',
      contractType: 'A01',
      inDomain: EIC.ES,
      outDomain: EIC.ES,
      periodStart: d('2025-09-28T22:00Z'),
      periodEnd: d('2025-10-02T22:00Z'),
      offset: 100,
    });
    expect(p.toString()).toBe(
      'documentType=A44&contract_MarketAgreement.type=A01&in_Domain=10YES-REE------0&out_Domain=10YES-REE------0&offset=100&periodStart=202509282200&periodEnd=202510022200',
    );
    expect(formatPeriod(d('2024-02-29T23:45:00Z'))).toBe('202402292345');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = ms('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('pacing', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream();
  });
  afterAll(() => fake.close());

  it('spaces requests under the per-minute budget and pauses everyone after a Retry-After', async () => {
    let clock = 0;
    const waits: number[] = [];
    const client = new EntsoeClient({
      token: TOKEN,
      baseUrl: fake.url,
      requestsPerMinute: 60,
      now: () => clock,
      sleep: async (wait) => {
        waits.push(wait);
        clock += wait;
      },
    });
    const req = {
      documentType: 'A44' as const,
      inDomain: EIC.PT,
      outDomain: EIC.PT,
      periodStart: d('2025-01-01'),
      periodEnd: d('2025-01-02'),
    };
    await client.get(req);
    await client.get(req);
    fake.fail(key('A44', EIC.PT, EIC.PT), { kind: 'status', status: 429, headers: { 'retry-after': '5' } });
    await client.get(req);
    await client.get(req);
    // 1 s between starts; the 429 makes the retry and the next request wait 5 s.
    expect(waits).toEqual([1000, 1000, 5000, 1000]);
  });
});

describe('paging', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream();
  });
  afterAll(() => fake.close());

  const ES = key('A44', EIC.ES, EIC.ES);
  const req = {
    documentType: 'A44' as const,
    inDomain: EIC.ES,
    outDomain: EIC.ES,
    periodStart: d('2025-01-01'),
    periodEnd: d('2025-01-04'),
  };
  const onePerPage = { ...PRICE_PAGES, size: 1 };
  const day = (n: number, price: number) => a44(EIC.ES, `2025-01-0${n}T00:00Z`, Array(24).fill(price));

  it('reads pages while they come back full; a day published again with other values is a new page', async () => {
    fake.serve(ES, { body: day(1, 10) });
    fake.serve(`${ES}#1`, { body: day(2, 10).replace('<mRID>test</mRID>', '<mRID>other</mRID>') });
    fake.serve(`${ES}#2`, { body: day(1, 11) });
    const pages = await fetchPages(fakeClient(fake).client, req, onePerPage);
    expect(pages.map((p) => p?.series[0]?.points.length ?? 0)).toEqual([24, 24, 24, 0]);
  });

  it('refuses a page whose parsed content repeats an earlier page, even with a new mRID and createdDateTime', async () => {
    fake.serve(ES, { body: day(1, 10) });
    fake.serve(`${ES}#1`, { body: day(2, 10) });
    fake.serve(`${ES}#2`, {
      body: day(1, 10).replace(
        '<mRID>test</mRID>',
        '<mRID>x</mRID><createdDateTime>2025-01-05T00:00:00Z</createdDateTime>',
      ),
    });
    const before = fake.requests.length;
    const paged = fetchPages(fakeClient(fake).client, req, onePerPage);
    await expect(paged).rejects.toThrow(EntsoePagingError);
    await expect(paged).rejects.toThrow(/offset=2: the platform repeated the page at offset 0/);
    expect(fake.requests.length - before).toBe(3);
  });
});

describe('progress', () => {
  const sink = () => {
    let text = '';
    const stream = Object.assign(new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }), { isTTY: false });
    return { stream, text: () => text };
  };

  it('prints one plain line per window without a terminal', () => {
    const out = sink();
    let now = 0;
    const p = createProgress({ stream: out.stream, now: () => now });
    p.start(2, 0);
    p.begin('prices ES 2025');
    now = 1500;
    p.end('prices ES 2025', { rows: 240 });
    p.end('prices PT 2025', { rows: 0, error: 'boom' });
    p.finish();
    expect(out.text()).toBe(
      '2 window(s) to fetch\n[1/2] prices ES 2025: 240 row(s) (elapsed 2s, ETA 2s)\nfailed prices PT 2025: boom\n',
    );
  });

  it('counts requests against a stated plan: rate measured, ETA never below the pace', () => {
    const out = sink();
    let now = 0;
    const p = createProgress({ stream: out.stream, now: () => now });
    p.start(2, 0, { lines: ['plan: 2 window(s), 10 request(s)', '  prices …'], requests: 10, requestsPerMinute: 60 });
    now = 2000;
    // 4 requests in 2 s: 120/min; 6 left take 3 s at that rate but 6 s at the pace of 60/min.
    p.end('prices ES 2025', { rows: 5, requests: 4 });
    now = 3000;
    p.end('prices PT 2025', { rows: 0, error: 'boom', requests: 1 });
    expect(out.text()).toBe(
      'plan: 2 window(s), 10 request(s)\n  prices …\n' +
        '[1/2] prices ES 2025: 5 row(s); requests 4/10, 120/min (elapsed 2s, ETA 6s)\n' +
        'failed prices PT 2025: boom (requests 5/10, 100/min)\n',
    );
  });

  it('draws a bar with ETA on a terminal', () => {
    expect(barLine(3, 12, 90_000, 'flows ES->FR', 12)).toBe('[###---------] 3/12  25%  ETA 1m30s  flows ES->FR');
    expect(formatDuration(3_723_000)).toBe('1h02m');
  });
});
