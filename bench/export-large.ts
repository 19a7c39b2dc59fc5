/**
 * Issue 44 on a long history (`npm run bench -- --export --years 20`): every border's hourly flows
 * over the whole stored span as the CSV export against `psql -c "COPY (<the export's own SQL>) TO
 * STDOUT WITH CSV"` on the same rows (interleaved rounds, the export gzip-coded as fetch asks and
 * uncompressed: wall time, first byte, bytes, RSS growth of the server process), a client that
 * aborts mid-stream (time until the export's statement has left `pg_stat_activity`), and ci-share,
 * flow-type summary and scatter at 1H over the span. The server is `dist/src/main.js` in a process
 * of its own (build with `npm run build:bench`), reading the schema `<prefix><years>y` (seeded by
 * `node dist/src/cli/seed.js --large --years <years>`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { testConfig } from '../src/config.js';
import { openPostgres } from '../src/db/client.js';
import type { FlowQuery } from '../src/repositories/flows/row-query.js';
import { flowRowsStatement } from '../src/repositories/flows/read-rows.js';
import { copy, download, inlined, median, type Run, spread } from './export.js';

export interface LargeExportBenchOptions {
  readonly pgUrl: string;
  readonly rounds: number;
  readonly schema: string;
  /** Only the cases whose name contains this text. */
  readonly only?: string | undefined;
}

/** Names of the statements a flows CSV export runs: COPY on PostgreSQL, row batches where COPY does not fit. */
const FLOW_EXPORT_STATEMENTS = ['copyFlowsCsv', 'findFlowRows'] as const;

/**
 * Request headers asking for the body as it is: fetch asks for gzip, and a gzip body of a few MB
 * read is tens of MB of rows, so a whole year can sit in socket buffers before the abort.
 */
const IDENTITY = { 'accept-encoding': 'identity' };

/** VmRSS of a process (bytes). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Starts `dist/src/main.js` on a free port for `schema`; resolves once `/readyz` answers 200 (`/healthz` does while it is still starting). */
async function startServer(pgUrl: string, schema: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      RESPONSE_CACHE: 'false',
      RATE_LIMIT_CAPACITY: '100000000',
      RATE_LIMIT_REFILL_PER_SECOND: '100000',
      REQUEST_TIMEOUT_MS: '600000',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill();
  throw new Error('server did not start');
}

/**
 * Aborts a flows export (uncompressed) after its first `afterBytes` bytes, then polls pg_stat_activity every
 * 20 ms until no statement named one of `statements` is active: ms from the abort until then.
 */
async function cancelCase(
  url: string,
  pgUrl: string,
  statements: readonly string[],
  afterBytes: number,
): Promise<number> {
  const probe = await openPostgres(testConfig({ DATABASE_URL: pgUrl, DATABASE_SCHEMA: 'public' }), pgUrl);
  try {
    const controller = new AbortController();
    const res = await fetch(url, { signal: controller.signal, headers: IDENTITY });
    const reader = res.body!.getReader();
    let bytes = 0;
    while (bytes < afterBytes) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`export ended before the abort (${res.status}, ${bytes} bytes)`);
      bytes += value.byteLength;
    }
    const active = async () => {
      const [r] = await probe.rawQuery<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND (${statements.map((s) => `query LIKE '%/* ${s} */%'`).join(' OR ')}) AND query NOT LIKE '%pg_stat_activity%'`,
      );
      return r!.n;
    };
    if (!(await active())) throw new Error(`no ${statements.join(' or ')} active before the abort`);
    const at = performance.now();
    controller.abort();
    for (;;) {
      if (!(await active())) return performance.now() - at;
      if (performance.now() - at > 30_000) return Number.POSITIVE_INFINITY;
      await sleep(20);
    }
  } finally {
    await probe.close();
  }
}

/** Runs the long-history export cases and returns their Markdown report. */
export async function runLargeExportBench(opts: LargeExportBenchOptions): Promise<string> {
  const { pgUrl, schema } = opts;
  const db = await openPostgres(testConfig({ DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema }), pgUrl);
  const [span] = await db.rawQuery<{ first: Date; last: Date }>(
    'SELECT min(ts) AS first, max(ts) AS last FROM border_hour',
  );
  await db.close();
  const from = new Date(Math.ceil(span!.first.getTime() / 86_400_000) * 86_400_000);
  const to = new Date(Math.floor(span!.last.getTime() / 86_400_000) * 86_400_000);
  const range = `datetime_from=${from.toISOString()}&datetime_to=${to.toISOString()}`;
  const port = 40_000 + (process.pid % 10_000);
  const server = await startServer(pgUrl, schema, port);
  const origin = `http://127.0.0.1:${port}`;
  const lines: string[] = [];
  const want = (name: string) => !opts.only || name.includes(opts.only);
  try {
    const flowsUrl = `${origin}/api/v1/export/flows?resolution=1H&${range}`;
    const query: FlowQuery = { from, to, borderIds: null, flowTypes: [], resolution: '1H', basis: 'physical' };
    const sql = inlined(flowRowsStatement(query)).replace(/\s+/g, ' ');
    if (want('flows')) {
      const runs: Record<'copy' | 'csv' | 'identity', Run[]> = { copy: [], csv: [], identity: [] };
      for (let round = 0; round < opts.rounds; round++) {
        const order = round % 2 ? (['identity', 'csv', 'copy'] as const) : (['copy', 'csv', 'identity'] as const);
        for (const side of order) {
          runs[side].push(
            side === 'copy'
              ? await copy(pgUrl, schema, sql)
              : await download(flowsUrl, () => rssOf(server.pid!), side === 'identity' ? IDENTITY : undefined),
          );
          console.error(`flows ${side} round ${round}: ${runs[side].at(-1)!.ms.toFixed(0)} ms`);
        }
      }
      const ratio = (r: readonly Run[]) => median(r.map((x) => x.ms)) / median(runs.copy.map((x) => x.ms));
      const row = (name: string, r: readonly Run[]) =>
        `| ${name} | ${spread(r.map((x) => x.ms))} | ${ratio(r).toFixed(2)}x | ${spread(r.map((x) => x.firstByteMs))} | ${(median(r.map((x) => x.bytes)) / 2 ** 20).toFixed(0)} | ${name.startsWith('COPY') ? '–' : spread(r.map((x) => x.rssGrowthMb))} |`;
      lines.push(
        `### Export: hourly flows of every border, ${schema} ${from.toISOString().slice(0, 10)} .. ${to.toISOString().slice(0, 10)} (${opts.rounds} interleaved rounds, median (min–max))`,
        '',
        '| | wall ms | / COPY | first byte ms | MB | server RSS growth MB |',
        '|---|---|---|---|---|---|',
        row('COPY (psql) of flowRowsStatement', runs.copy),
        row('export CSV 1H (gzip, as fetch asks)', runs.csv),
        row('export CSV 1H (identity)', runs.identity),
        '',
      );
    }
    if (want('cancel')) {
      const cancels: number[] = [];
      for (let round = 0; round < opts.rounds; round++) {
        cancels.push(await cancelCase(flowsUrl, pgUrl, FLOW_EXPORT_STATEMENTS, 4 * 2 ** 20));
        await sleep(500);
      }
      lines.push(
        `Cancel (abort after 4 MB, then pg_stat_activity every 20 ms): ${spread(cancels)} ms until no ${FLOW_EXPORT_STATEMENTS.join(' or ')} is active.`,
        '',
      );
    }
    const aggregates = [
      ['flows NDJSON', `${flowsUrl}&format=ndjson`, undefined],
      ['flows Arrow', `${flowsUrl}&format=arrow`, undefined],
      ['flows Parquet', `${flowsUrl}&format=parquet`, undefined],
      ['ci-share', `${origin}/api/v1/export/ci-share?resolution=1H&${range}`, undefined],
      ['flow-type-summary', `${origin}/api/v1/export/flow-type-summary?resolution=1H&${range}`, undefined],
      [
        'scatter (GraphQL HOURLY; /api/v1 caps 1H at 14 days)',
        `${origin}/graphql`,
        `{ flowPriceScatter(from: "${from.toISOString()}", to: "${to.toISOString()}", resolution: HOURLY) { rows { biddingZoneFrom biddingZoneTo netFlowMw priceDeltaEurMwh count } } }`,
      ],
    ] as const;
    const cases = aggregates.filter(([name]) => want(name));
    if (cases.length) {
      const runs = new Map<string, Run[]>(cases.map(([name]) => [name, []]));
      for (let round = 0; round < opts.rounds; round++) {
        for (const [name, url, graphql] of round % 2 ? [...cases].reverse() : cases) {
          const run = await download(url, () => rssOf(server.pid!), undefined, graphql).catch((err: Error) => {
            console.error(`${name}: ${err.message}`);
            return { ms: Number.NaN, firstByteMs: Number.NaN, bytes: 0, rssGrowthMb: Number.NaN };
          });
          runs.get(name)!.push(run);
          console.error(`${name} round ${round}: ${run.ms.toFixed(0)} ms`);
        }
      }
      lines.push(
        '| request (1H, whole span) | wall ms | first byte ms | MB | server RSS growth MB |',
        '|---|---|---|---|---|',
        ...cases.map(([name]) => {
          const r = runs.get(name)!;
          return `| ${name} | ${spread(r.map((x) => x.ms))} | ${spread(r.map((x) => x.firstByteMs))} | ${(median(r.map((x) => x.bytes)) / 2 ** 20).toFixed(1)} | ${spread(r.map((x) => x.rssGrowthMb))} |`;
        }),
        '',
      );
    }
  } finally {
    server.kill();
  }
  return lines.join('\n');
}
