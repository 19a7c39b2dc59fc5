/**
 * Issue 44's export cases: every zone's native prices over the stored year (15-minute from
 * 2025-10-01), as the CSV and Parquet exports and as `psql -c "COPY (<the export's own SQL>) TO
 * STDOUT WITH CSV"` on the same rows, measured in interleaved rounds: wall time, first byte, bytes,
 * and the server process's RSS growth during the transfer. Reads `bench_large` when it holds data,
 * else a schema `bench_export` filled with the demo data set (seeded on the first run).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { prepareDatabase } from '../src/bootstrap.js';
import { testConfig } from '../src/config.js';
import { openPostgres } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { pricesCsvStatement } from '../src/repositories/prices/csv-copy.js';
import type { Prisma } from '../src/generated/prisma/client.js';

export interface ExportBenchOptions {
  readonly pgUrl: string;
  readonly rounds: number;
  /** Schema to read; default bench_large when it holds prices, else bench_export (demo data). */
  readonly schema?: string;
}

/** SQL text of a statement with its parameters written in (for psql). */
export function inlined(statement: Prisma.Sql): string {
  const literal = (v: unknown): string => {
    if (v instanceof Date) return `'${v.toISOString()}'::timestamptz`;
    if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(',')}]`;
    if (typeof v === 'number') return String(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return `'${String(v).replaceAll("'", "''")}'`;
  };
  return statement.text.replace(/\$(\d+)/g, (_, i) => literal(statement.values[Number(i) - 1]));
}

/** One transfer: wall time and first byte (ms), bytes, and an RSS growth (MB) of the process the side names. */
export interface Run {
  readonly ms: number;
  readonly firstByteMs: number;
  readonly bytes: number;
  readonly rssGrowthMb: number;
}

/**
 * Reads an URL to its end (request `headers` added to fetch's, which ask for gzip; POSTed as the
 * GraphQL document `graphql` when given): wall time, first
 * byte, bytes (decoded), and the growth of `rss` (bytes; this process's by default) sampled every 20 ms.
 */
export async function download(
  url: string,
  rss: () => number = () => process.memoryUsage().rss,
  headers?: Record<string, string>,
  graphql?: string,
): Promise<Run> {
  const rss0 = rss();
  let peak = rss0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 20);
  const start = performance.now();
  try {
    const res = await fetch(
      url,
      graphql
        ? {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ query: graphql }),
          }
        : { headers },
    );
    const reader = res.body!.getReader();
    let first = 0;
    let bytes = 0;
    let head = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!first) {
        first = performance.now() - start;
        head = new TextDecoder().decode(value.subarray(0, 65_536));
      }
      bytes += value.byteLength;
    }
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (graphql && head.includes('"errors":')) throw new Error(`${url}: GraphQL errors: ${head.slice(0, 300)}`);
    return { ms: performance.now() - start, firstByteMs: first, bytes, rssGrowthMb: (peak - rss0) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

/** `psql -c "COPY (sql) TO STDOUT WITH CSV"`: wall time, first byte and bytes. */
export function copy(pgUrl: string, schema: string, sql: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = 0;
    let bytes = 0;
    const child = spawn('psql', [
      pgUrl,
      '-X',
      '-q',
      '-c',
      `SET search_path TO ${schema}`,
      '-c',
      `COPY (${sql}) TO STDOUT WITH CSV`,
    ]);
    child.stdout.on('data', (b: Buffer) => {
      if (!first) first = performance.now() - start;
      bytes += b.byteLength;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - start, firstByteMs: first, bytes, rssGrowthMb: 0 })
        : reject(new Error(`psql exited ${code}`)),
    );
  });
}

export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const spread = (xs: readonly number[], digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

/** Runs the export cases and returns their Markdown report. */
export async function runExportBench(opts: ExportBenchOptions): Promise<string> {
  const log = createLogger({ LOG_LEVEL: 'warn' });
  let schema = opts.schema ?? 'bench_large';
  const probe = await openPostgres(testConfig({ DATABASE_URL: opts.pgUrl, DATABASE_SCHEMA: 'public' }), opts.pgUrl);
  const [large] = await probe.rawQuery<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'bench_large' AND tablename = 'price_point'",
  );
  await probe.close();
  if (!opts.schema && !large?.n) schema = 'bench_export';
  const config = testConfig({ DATABASE_URL: opts.pgUrl, DATABASE_SCHEMA: schema, SEED_DEMO: true, LOG_LEVEL: 'warn' });
  const db = await openPostgres(config, opts.pgUrl);
  await prepareDatabase(db, { ...config, MIGRATE_ON_START: true }, log, new Date());
  const [span] = await db.rawQuery<{ last: Date; zones: number }>(
    'SELECT max(ts) AS last, count(DISTINCT zone_id)::int AS zones FROM price_point',
  );
  const to = new Date(Math.floor(span!.last.getTime() / 86_400_000) * 86_400_000);
  const from = new Date(to.getTime() - 365 * 86_400_000);
  const app = await createApp({
    config: {
      ...config,
      RATE_LIMIT_CAPACITY: 1_000_000,
      RATE_LIMIT_REFILL_PER_SECOND: 1_000,
      REQUEST_TIMEOUT_MS: 60_000,
    },
    db,
    logger: log,
  });
  const server = createServer(app.yoga);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const query = `resolution=native&datetime_from=${from.toISOString()}&datetime_to=${to.toISOString()}`;
  const zoneIds = app.deps.catalogue.zones.map((z) => z.id);
  const sql = inlined(
    pricesCsvStatement({ zoneIds, allZones: true, from, to, resolution: 'native' }) as Prisma.Sql,
  ).replace(/\s+/g, ' ');
  const [{ n } = { n: 0 }] = await db.rawQuery<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) r`);
  const runs: Record<'copy' | 'csv' | 'parquet', Run[]> = { copy: [], csv: [], parquet: [] };
  try {
    for (let round = 0; round < opts.rounds; round++) {
      runs.copy.push(await copy(opts.pgUrl, schema, sql));
      runs.csv.push(await download(`${origin}/api/v1/export/prices?${query}`));
      runs.parquet.push(await download(`${origin}/api/v1/export/prices?${query}&format=parquet`));
    }
  } finally {
    await new Promise((done) => server.close(done));
    await app.close();
    await db.close();
  }
  const row = (name: string, r: readonly Run[]) =>
    `| ${name} | ${spread(r.map((x) => x.ms))} | ${(median(r.map((x) => x.ms)) / median(runs.copy.map((x) => x.ms))).toFixed(2)}x | ${spread(r.map((x) => x.firstByteMs))} | ${(median(r.map((x) => x.bytes)) / 2 ** 20).toFixed(1)} | ${name === 'COPY (psql)' ? '–' : spread(r.map((x) => x.rssGrowthMb))} |`;
  return [
    `### Export: a year of native prices of every zone (schema ${schema}: ${n} rows, ${span!.zones} zones, ${from.toISOString().slice(0, 10)} .. ${to.toISOString().slice(0, 10)}; ${opts.rounds} interleaved rounds, median (min–max))`,
    '',
    '| | wall ms | / COPY | first byte ms | MB | RSS growth MB (in process, client included) |',
    '|---|---|---|---|---|---|',
    row('COPY (psql)', runs.copy),
    row('export CSV', runs.csv),
    row('export Parquet', runs.parquet),
    '',
  ].join('\n');
}
