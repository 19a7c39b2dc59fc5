/**
 * `npm run bench -- --large [--years 5]`: the speed targets of the large data set on PostgreSQL.
 * The data set (src/demo/large.ts: 30 zones, 59 borders, before 2018-09-30T22:00Z DE_AT_LU and its
 * 11 borders in place of DE_LU, AT and their 16; `years` years of hourly flows, 15-minute prices from 2025-10-01) lives in the schema `bench_large`, seeded on the first run and reused
 * afterwards. Ranges are absolute, derived from the stored data ("now" = the hour after the last
 * physical flow), so a data set seeded days ago measures the same queries.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { testConfig } from '../src/config.js';
import { type Database, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { largeDemoFrom, seedLargeDemo } from '../src/demo/large.js';
import { DE_AT_LU_SPLIT } from '../src/domain/catalogue-history.js';
import { ensureCatalogue } from '../src/repositories/catalogue/catalogue.js';
import { deleteDemoData } from '../src/repositories/ingest/demo-data.js';
import { type BenchCase, type BenchResult, graphqlCase } from './load.js';

export const LARGE_SCHEMA = 'bench_large';

/** How to run the large-set cases. */
export interface LargeOptions {
  readonly pgUrl: string;
  readonly years: number;
  readonly seconds: number;
  readonly connections: number;
  /** Serves the app over `db` on loopback (bench/run.ts). */
  readonly serve: (db: Database) => Promise<{ base: string; close: () => Promise<void> }>;
}

/** A case with its target p50 (ms) and how many rows one response holds. */
interface LargeCase extends BenchCase {
  readonly targetMs: number | string;
  readonly rows: (body: unknown) => number;
  readonly sampleMemory?: boolean;
}

const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const restRows = (b: unknown) => (b as { data: unknown[] }).data.length;
const gqlRows = (b: unknown) => (b as { data: { flows: { edges: unknown[] } } }).data.flows.edges.length;

/** Opens bench_large, migrated, and seeds it unless it already holds `years` years of data. */
async function largeDatabase(opts: LargeOptions, log: (m: string) => void): Promise<Database> {
  const db = await openPostgres(
    testConfig({ DATABASE_URL: opts.pgUrl, DATABASE_SCHEMA: LARGE_SCHEMA, DATABASE_POOL_SIZE: 10 }),
    opts.pgUrl,
  );
  await migrate(db);
  await ensureCatalogue(db);
  const [span] = await db.rawQuery<{ first: Date | null; last: Date | null }>(
    'SELECT min(ts) AS first, max(ts) AS last FROM border_hour',
  );
  if (span?.first && span.last && span.first > largeDemoFrom(span.last, opts.years)) {
    log(
      `${LARGE_SCHEMA} holds less than ${opts.years} years (${span.first.toISOString()} .. ${span.last.toISOString()}): replacing it`,
    );
    await deleteDemoData(db);
  }
  const seeded = await seedLargeDemo(db, { now: new Date(), years: opts.years, log });
  if (!seeded) log(`${LARGE_SCHEMA} already holds the large data set: reused`);
  return db;
}

/** The measured request shapes, over absolute ranges of the stored data. */
async function largeCases(db: Database, years: number, base: string): Promise<LargeCase[]> {
  const [last] = await db.rawQuery<{ ts: Date }>(
    'SELECT max(ts) AS ts FROM border_hour WHERE physical_source IS NOT NULL',
  );
  const to = (last?.ts.getTime() ?? Date.now()) + HOUR_MS;
  const fromYears = new Date(to);
  fromYears.setUTCFullYear(fromYears.getUTCFullYear() - years);
  const long = `datetime_from=${iso(fromYears.getTime())}&datetime_to=${iso(to)}`;
  const twoWeeks = { from: iso(to - 14 * 24 * HOUR_MS), to: iso(to) };
  const gqlFields =
    'totalCount edges { cursor node { datetime biddingZoneFrom biddingZoneTo flowType flowInterpolated netFlowMw priceFromEurMwh priceToEurMwh capacityMw hours } } pageInfo { endCursor hasNextPage }';
  const gql = (after: string) =>
    `{ flows(from: "${twoWeeks.from}", to: "${twoWeeks.to}", resolution: HOURLY, first: 1000${after}) { ${gqlFields} } }`;
  const cursors = await pageCursors(base, (after) => gql(after ? `, after: "${after}"` : ''));
  const cursor = cursors[0]!;
  const deep = Math.max(0, cursors.length - 2);
  const deepest = cursors[deep]!;
  return [
    {
      name: `REST /flows 1H, 14 days, all borders (one page)`,
      path: `/api/v1/flows?datetime_from=${twoWeeks.from}&datetime_to=${twoWeeks.to}&resolution=1H`,
      targetMs: 300,
      rows: restRows,
      sampleMemory: true,
    },
    {
      name: `REST /flows 1D, ${years} years, all borders (first page)`,
      path: `/api/v1/flows?${long}&resolution=1D&limit=20000`,
      targetMs: 300,
      rows: restRows,
      sampleMemory: true,
    },
    {
      name: `REST /ci-share 1W, ${years} years, all zones`,
      path: `/api/v1/ci-share?${long}&resolution=1W`,
      targetMs: 150,
      rows: restRows,
    },
    {
      name: `REST /flow-type-summary 1W, ${years} years, all borders`,
      path: `/api/v1/flow-type-summary?${long}&resolution=1W`,
      targetMs: 150,
      rows: restRows,
    },
    {
      name: `REST /flow-duration DE_LU->FR, ${years} years`,
      path: `/api/v1/flow-duration?${long}&border=DE_LU-%3EFR`,
      targetMs: 200,
      rows: restRows,
    },
    { name: 'REST /zones (coverage from the rollup)', path: '/api/v1/zones', targetMs: 50, rows: restRows },
    { name: 'REST /borders (coverage from the rollup)', path: '/api/v1/borders', targetMs: 50, rows: restRows },
    {
      ...graphqlCase('GraphQL flows 1H 14 d, first: 1000 (first page)', gql('')),
      targetMs: 'reference',
      rows: gqlRows,
    },
    {
      ...graphqlCase('GraphQL flows 1H 14 d, first: 1000 after row 1,000 (cursor)', gql(`, after: "${cursor}"`)),
      targetMs: '<= 1.5 x first page',
      rows: gqlRows,
    },
    {
      ...graphqlCase(
        `GraphQL flows 1H 14 d, first: 1000 after row ${((deep + 1) * 1000).toLocaleString('en')} (deepest full page)`,
        gql(`, after: "${deepest}"`),
      ),
      targetMs: '<= 1.5 x first page',
      rows: gqlRows,
    },
  ];
}

/** End cursors of the pages that have a next page, walked from the start (the deepest last). */
async function pageCursors(base: string, query: (after?: string) => string): Promise<string[]> {
  type Page = { data: { flows: { edges: unknown[]; pageInfo: { endCursor: string; hasNextPage: boolean } } } };
  const cursors: string[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: query(after) }),
    });
    const { edges, pageInfo } = ((await res.json()) as Page).data.flows;
    if (!pageInfo.hasNextPage || edges.length < 1000) return cursors;
    cursors.push(pageInfo.endCursor);
    after = pageInfo.endCursor;
  }
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon');

/**
 * A warm-up of 20 requests, then `seconds` of load, as load.ts measures, but autocannon runs
 * in a child process: parsing 5 MB replies then costs neither the server's event loop (its latency)
 * nor this process's memory, so the sampled RSS is the server's.
 */
async function measureApart(base: string, c: BenchCase, seconds: number, connections: number): Promise<BenchResult> {
  const args = [AUTOCANNON, '--json', '--no-progress', '-c', String(connections), '-m', c.method ?? 'GET'];
  if (c.body) args.push('-b', c.body, '-H', 'content-type=application/json');
  const run = (extra: string[]) =>
    new Promise<{
      latency: { p50: number; p99: number };
      requests: { average: number };
      errors: number;
      non2xx: number;
    }>((resolve, reject) => {
      execFile(process.execPath, [...args, ...extra, base + c.path], { maxBuffer: 16 << 20 }, (err, stdout) =>
        err ? reject(err) : resolve(JSON.parse(stdout)),
      );
    });
  await run(['-a', '20']);
  const r = await run(['-d', String(seconds)]);
  return {
    name: c.name,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: Math.round(r.requests.average),
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** Samples the server process's memory while `fn` runs: RSS and V8 heap in use (garbage included). */
async function withMemory<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; before: number; peak: number; after: number; heapPeak: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  let heapPeak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 20);
  try {
    const value = await fn();
    return { value, before, peak, after: process.memoryUsage().rss, heapPeak };
  } finally {
    clearInterval(timer);
  }
}

const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

/** Seeds (or reuses) the large data set, measures every case, and returns a Markdown section. */
export async function runLarge(opts: LargeOptions): Promise<string> {
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const db = await largeDatabase(opts, log);
  const { base, close } = await opts.serve(db);
  const lines: string[] = [];
  try {
    const cases = await largeCases(db, opts.years, base);
    const results: { c: LargeCase; r: BenchResult; rows: number; memory: string }[] = [];
    for (const c of cases) {
      const res = await fetch(base + c.path, {
        method: c.method ?? 'GET',
        body: c.body,
        headers: c.body ? { 'content-type': 'application/json' } : {},
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${c.name}: HTTP ${res.status} ${text.slice(0, 300)}`);
      const rows = c.rows(JSON.parse(text));
      const m = await withMemory(() => measureApart(base, c, opts.seconds, opts.connections));
      const memory = c.sampleMemory
        ? `${mb(m.before)} / ${mb(m.peak)} / ${mb(m.after)}; heap peak ${mb(m.heapPeak)}; body ${Math.round(text.length / 1024)} KiB`
        : '';
      results.push({ c, r: m.value, rows, memory });
      log(`${c.name}: p50 ${m.value.p50} ms, ${rows} rows`);
    }
    const counts = await db.rawQuery<{ prices: number; hours: number }>(
      'SELECT (SELECT count(*) FROM price_point)::int AS prices, (SELECT count(*) FROM border_hour)::int AS hours',
    );
    lines.push(
      `### Large data set on PostgreSQL 15 (schema ${LARGE_SCHEMA}: ${opts.years} years, 30 zones, 59 borders${largeDemoFrom(new Date(), opts.years).getTime() < Date.parse(DE_AT_LU_SPLIT) ? ' (DE_AT_LU and its 11 borders for DE_LU, AT and their 16 before 2018-10-01)' : ''}, ${counts[0]?.prices} prices, ${counts[0]?.hours} border-hours)`,
      '',
      '| case | rows | p50 ms | p99 ms | req/s | errors | target p50 | server memory: RSS before / peak / after; heap peak |',
      '|---|---|---|---|---|---|---|---|',
      ...results.map(
        ({ c, r, rows, memory }) =>
          `| ${c.name} | ${rows} | ${r.p50} | ${r.p99} | ${r.rps} | ${r.errors + r.non2xx} | ${typeof c.targetMs === 'number' ? `< ${c.targetMs}` : c.targetMs} | ${memory} |`,
      ),
      '',
    );
    const [firstPage, deepPage] = results.slice(-2);
    if (firstPage && deepPage)
      lines.push(`GraphQL deep page / first page p50: ${(deepPage.r.p50 / firstPage.r.p50).toFixed(2)}`, '');
  } finally {
    await close();
    await db.close();
  }
  return lines.join('\n');
}
