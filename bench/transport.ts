/**
 * Transport figures: latency of answers from the response caches (REST, GraphQL) and of 304
 * revalidations against the same requests with the caches off, and compressed sizes of two pages.
 */
import { createApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import { type BenchCase, type BenchResult, graphqlCase, measureInterleaved, table } from './load.js';
import { type Loopback, listenOnLoopback } from './loopback.js';

const DASHBOARD_PRICES =
  '{ prices(zones: ["DE_LU", "FR"], from: "now-7d", to: "now", resolution: HOURLY, first: 500) { edges { node { biddingZone datetime priceEurMwh } } pageInfo { hasNextPage endCursor } } }';
const PRICES = '/api/v1/prices';
const FLOWS_14D = '/api/v1/flows?datetime_from=now-14d';

async function listen(db: Database, cache: boolean): Promise<Loopback> {
  const config = testConfig({
    RATE_LIMIT_CAPACITY: 1_000_000_000,
    RATE_LIMIT_REFILL_PER_SECOND: 1_000_000,
    RESPONSE_CACHE: cache,
  });
  const app = await createApp({ config, db });
  return listenOnLoopback(app.yoga, () => app.close());
}

/** Body size of `path` in bytes for each Accept-Encoding. */
async function sizes(base: string, path: string): Promise<string> {
  const out: string[] = [];
  for (const coding of ['identity', 'gzip', 'br']) {
    const res = await fetch(base + path, { headers: { 'accept-encoding': coding } });
    const raw = res.headers.get('content-encoding');
    const bytes = raw ? await streamBytes(res) : Buffer.from(await res.arrayBuffer()).length;
    out.push(`${coding} ${bytes.toLocaleString('en')} B`);
  }
  return `- ${path}: ${out.join(', ')}`;
}

/** Bytes on the wire of a compressed response (fetch would decompress it): re-fetched over node:http. */
async function streamBytes(res: Response): Promise<number> {
  const { request } = await import('node:http');
  const url = new URL(res.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': res.headers.get('content-encoding')! } }, (r) => {
      let n = 0;
      r.on('data', (c: Buffer) => (n += c.length))
        .on('end', () => resolve(n))
        .on('error', reject);
    });
    req.on('error', reject).end();
  });
}

/** The transport section of the report. */
export async function runTransport(title: string, db: Database, seconds: number, connections: number): Promise<string> {
  const cached = await listen(db, true);
  const uncached = await listen(db, false);
  try {
    const etag = (await fetch(cached.base + PRICES)).headers.get('etag') ?? '';
    const cases: BenchCase[] = [
      { name: 'REST /prices default, cache off (SQL)', path: PRICES },
      { name: 'REST /prices default, cache hit', path: PRICES },
      { name: 'REST /prices default, If-None-Match -> 304', path: PRICES, headers: { 'if-none-match': etag } },
      { name: 'REST /prices default, cache hit, gzip', path: PRICES, headers: { 'accept-encoding': 'gzip' } },
      graphqlCase('GraphQL dashboard prices 2 zones 7 d, cache off (SQL)', DASHBOARD_PRICES),
      graphqlCase('GraphQL dashboard prices 2 zones 7 d, cache hit', DASHBOARD_PRICES),
    ];
    const servers = [uncached, cached, cached, cached, uncached, cached];
    const results: BenchResult[] = [];
    for (const [i, c] of cases.entries()) {
      const [r] = await measureInterleaved(servers[i]!.base, [c], seconds, connections, 2);
      results.push(c.headers?.['if-none-match'] ? { ...r!, non2xx: 0 } : r!);
    }
    const size = [await sizes(cached.base, FLOWS_14D), await sizes(cached.base, PRICES)];
    return [
      table(`${title}: response caches and revalidation`, results),
      '#### Compressed sizes',
      '',
      ...size,
      '',
    ].join('\n');
  } finally {
    await cached.close();
    await uncached.close();
  }
}
