/**
 * `npm run bench -- --large --years 1,20 [--schema-prefix bench_large_] [--rounds 5]`: issue 35's
 * cases on two seeded large data sets side by side (schemas `<prefix><years>y`, seeded on the
 * first run as bench/large.ts seeds), one server each, response caches off. Each round measures
 * every case on both data sets in alternating order; a cell of a round is a COUNT of sequential
 * requests (enough for about `sliceMs`, 3 to 40: a slow case gets 3 whole answers, never a time slice
 * holding none), summarised by its median. The table gives, per data set, the spread (min-max over
 * rounds of those medians) and the ratio of the medians of all requests. Then, unless `yearLoad` is
 * false, one more year is ingested into each set and rolled back (bench/large-ingest.ts).
 */
import { testConfig } from '../src/config.js';
import { type Database, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { largeDemoFrom, seedLargeDemo } from '../src/demo/large.js';
import { DE_AT_LU_SPLIT } from '../src/domain/catalogue-history.js';
import { ensureCatalogue } from '../src/repositories/catalogue/catalogue.js';
import { yearLoadSection } from './large-ingest.js';

/** How to run the side-by-side comparison. */
export interface CompareOptions {
  readonly pgUrl: string;
  /** Years of the data sets, e.g. [1, 20]: the first is the reference of the ratio. */
  readonly years: readonly number[];
  readonly schemaPrefix: string;
  readonly rounds: number;
  /** Only the cases whose name contains this text; all when undefined. */
  readonly only?: string | undefined;
  /** Time one cell of a round aims at, ms (the request count follows from the warm-up). */
  readonly sliceMs: number;
  /** Whether to time one more year ingested into each set, rolled back (`--skip-ingest` leaves it out). */
  readonly yearLoad: boolean;
  readonly serve: (db: Database) => Promise<{ base: string; close: () => Promise<void> }>;
}

/** A case: its path on a data set, and its target as text with the check it implies. */
interface CompareCase {
  readonly name: string;
  readonly path: (span: Span) => Promise<string> | string;
  readonly target: string;
  /** Whether the figures meet the target: 20-year median (ms) and ratio to the reference. */
  readonly met: (median: number, ratio: number) => boolean;
}

/** The stored span of a data set: first and end (exclusive) hour of physical flows, UTC ms. */
interface Span {
  readonly base: string;
  readonly from: number;
  readonly to: number;
}

const HOUR_MS = 3_600_000;
/** DE_LU (and its borders) exist from the DE-AT-LU split on; the data sets hold DE_AT_LU before it. */
const DE_LU_FROM = Date.parse(DE_AT_LU_SPLIT);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const whole = (s: Span) => `datetime_from=${iso(s.from)}&datetime_to=${iso(s.to)}`;
const lastYear = (s: Span) => {
  const from = new Date(s.to);
  from.setUTCFullYear(from.getUTCFullYear() - 1);
  return `datetime_from=${iso(from.getTime())}&datetime_to=${iso(s.to)}`;
};

/** The offset of the last 1,000 rows of /flows 1D over the whole span (from one 1-row page's total). */
async function lastFlowsPage(s: Span): Promise<string> {
  const res = await fetch(`${s.base}/api/v1/flows?${whole(s)}&resolution=1D&limit=1`);
  const body = (await res.json()) as { meta: { pagination: { total: number } } };
  const offset = Math.max(0, body.meta.pagination.total - 1000);
  return `/api/v1/flows?${whole(s)}&resolution=1D&limit=1000&offset=${offset}`;
}

const ALL_CASES: readonly CompareCase[] = [
  {
    name: '/flow-duration DE_LU->FR, whole span of the border',
    path: (s) => `/api/v1/flow-duration?${whole({ ...s, from: Math.max(s.from, DE_LU_FROM) })}&border=DE_LU-%3EFR`,
    target: '<= 300 ms',
    met: (m) => m <= 300,
  },
  {
    name: '/flow-duration all borders, whole span',
    path: (s) => `/api/v1/flow-duration?${whole(s)}`,
    target: '<= 3,000 ms',
    met: (m) => m <= 3000,
  },
  {
    name: '/price-kpis all zones, one year',
    path: (s) => `/api/v1/price-kpis?${lastYear(s)}`,
    target: '<= 500 ms',
    met: (m) => m <= 500,
  },
  {
    name: '/price-kpis all zones, one year, basis=native',
    path: (s) => `/api/v1/price-kpis?${lastYear(s)}&basis=native`,
    target: 'none (reported)',
    met: () => true,
  },
  {
    name: '/flows 1D, last 1,000 rows by offset, whole span',
    path: lastFlowsPage,
    target: '<= 2.5 x 1 y',
    met: (_m, r) => r <= 2.5,
  },
  {
    name: '/flow-type-summary 1W, whole span',
    path: (s) => `/api/v1/flow-type-summary?${whole(s)}&resolution=1W`,
    target: '<= 600 ms',
    met: (m) => m <= 600,
  },
  { name: '/zones', path: () => '/api/v1/zones', target: '<= 2 x 1 y', met: (_m, r) => r <= 2 },
  { name: '/borders', path: () => '/api/v1/borders', target: '<= 2 x 1 y', met: (_m, r) => r <= 2 },
];

/** Opens `<prefix><years>y`, migrated, seeding it when it holds less than `years` years. */
async function dataSet(opts: CompareOptions, years: number, log: (m: string) => void): Promise<Database> {
  const schema = `${opts.schemaPrefix}${years}y`;
  const db = await openPostgres(
    testConfig({ DATABASE_URL: opts.pgUrl, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 10 }),
    opts.pgUrl,
  );
  await migrate(db);
  await ensureCatalogue(db);
  const [span] = await db.rawQuery<{ first: Date | null; last: Date | null }>(
    'SELECT min(ts) AS first, max(ts) AS last FROM border_hour',
  );
  if (span?.first && span.last && span.first > largeDemoFrom(span.last, years)) {
    throw new Error(
      `${schema} holds less than ${years} years (${span.first.toISOString()} .. ${span.last.toISOString()}): drop the schema to reseed`,
    );
  }
  if (await seedLargeDemo(db, { now: new Date(), years, log })) log(`${schema}: seeded`);
  return db;
}

async function spanOf(db: Database, base: string): Promise<Span> {
  const [r] = await db.rawQuery<{ first: Date; last: Date }>(
    'SELECT min(ts) AS first, max(ts) AS last FROM border_hour WHERE physical_source IS NOT NULL',
  );
  return { base, from: r!.first.getTime(), to: r!.last.getTime() + HOUR_MS };
}

/** One request's wall time in ms; the body is read whole (not parsed); a non-2xx throws. */
async function timeOne(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${Buffer.from(body).toString('utf8', 0, 300)}`);
  return performance.now() - t;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Per data set of one case: the medians of each round, every request's time, the process's RSS
 * peak, and the largest rise of RSS over its value when a round of the cell started.
 */
interface Cell {
  readonly rounds: number[];
  readonly all: number[];
  rssPeak: number;
  rssRise: number;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const spread = (c: Cell) => `${fmt(Math.min(...c.rounds))}-${fmt(Math.max(...c.rounds))}`;

/** Measures every case on every data set in interleaved rounds and returns a Markdown section. */
export async function runLargeCompare(opts: CompareOptions): Promise<string> {
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const cases = ALL_CASES.filter((c) => opts.only === undefined || c.name.includes(opts.only));
  const sets: { years: number; db: Database; server: { base: string; close: () => Promise<void> }; span: Span }[] = [];
  try {
    for (const years of opts.years) {
      const db = await dataSet(opts, years, log);
      const server = await opts.serve(db);
      sets.push({ years, db, server, span: await spanOf(db, server.base) });
    }
    const urls = await Promise.all(
      cases.map((c) => Promise.all(sets.map(async (s) => s.span.base + (await c.path(s.span))))),
    );
    const counts = cases.map(() => sets.map(() => 0));
    for (const [i] of cases.entries()) {
      for (const [j] of sets.entries()) {
        const warm = [await timeOne(urls[i]![j]!), await timeOne(urls[i]![j]!)];
        counts[i]![j] = Math.max(3, Math.min(40, Math.ceil(opts.sliceMs / Math.max(1, median(warm)))));
      }
    }
    const cells: Cell[][] = cases.map(() => sets.map(() => ({ rounds: [], all: [], rssPeak: 0, rssRise: 0 })));
    for (let round = 0; round < opts.rounds; round++) {
      const order = sets.map((_, j) => j);
      if (round % 2) order.reverse();
      for (const [i, c] of cases.entries()) {
        for (const j of order) {
          const cell = cells[i]![j]!;
          const times: number[] = [];
          const start = process.memoryUsage().rss;
          const timer = setInterval(() => {
            const rss = process.memoryUsage().rss;
            cell.rssPeak = Math.max(cell.rssPeak, rss);
            cell.rssRise = Math.max(cell.rssRise, rss - start);
          }, 20);
          try {
            for (let k = 0; k < counts[i]![j]!; k++) times.push(await timeOne(urls[i]![j]!));
          } finally {
            clearInterval(timer);
          }
          cell.rounds.push(median(times));
          cell.all.push(...times);
        }
        log(
          `round ${round + 1}/${opts.rounds} ${c.name}: ${sets.map((s, j) => `${s.years} y ${fmt(cells[i]![j]!.rounds.at(-1)!)} ms`).join(', ')}`,
        );
      }
    }
    const sizes = await Promise.all(
      sets.map(
        async (s) =>
          (
            await s.db.rawQuery<{ prices: number; hours: number }>(
              'SELECT (SELECT count(*) FROM price_point)::int AS prices, (SELECT count(*) FROM border_hour)::int AS hours',
            )
          )[0]!,
      ),
    );
    const [ref, big] = [0, sets.length - 1];
    const head = sets.map((s) => `${s.years} y min-max ms (requests)`);
    const ingest = opts.yearLoad
      ? await yearLoadSection(
          sets.map((s) => ({ years: s.years, schema: `${opts.schemaPrefix}${s.years}y`, db: s.db })),
          opts.rounds,
          log,
        )
      : '';
    return [
      `### Large data sets side by side on PostgreSQL 15 (${sets.map((s, j) => `${opts.schemaPrefix}${s.years}y: ${sizes[j]!.prices} prices, ${sizes[j]!.hours} border-hours`).join('; ')})`,
      '',
      `Per cell: min-max over ${opts.rounds} rounds of each round's median; ratio = median of all requests, ${sets[big]!.years} y / ${sets[ref]!.years} y; RSS peak = the bench process's RSS (server and client in process) while the cell ran, and in brackets its largest rise over its value when a round of the cell started.`,
      '',
      `| request | ${head.join(' | ')} | ratio | target | met? | RSS peak (rise) ${sets[big]!.years} y |`,
      `|---|${sets.map(() => '---|').join('')}---|---|---|---|`,
      ...cases.map((c, i) => {
        const row = cells[i]!;
        const ratio = median(row[big]!.all) / median(row[ref]!.all);
        const met = c.met(median(row[big]!.all), ratio);
        return `| ${c.name} | ${row.map((cell) => `${spread(cell)} (${cell.all.length})`).join(' | ')} | ${ratio.toFixed(2)} | ${c.target} | ${met ? 'yes' : '**no**'} | ${Math.round(row[big]!.rssPeak / 1_048_576)} MB (+${Math.round(row[big]!.rssRise / 1_048_576)}) |`;
      }),
      '',
      ingest,
    ].join('\n');
  } finally {
    for (const s of sets) {
      await s.server.close();
      await s.db.close();
    }
  }
}
