/**
 * Issue 35's ingestion case, run by `--large --years a,b` (bench/large-compare.ts): one year of every
 * zone's 15-minute prices and every border's physical flows loaded into each data set through the
 * ingest's own window loads (`loadPriceRows`, `loadBorderHourRows`: binary COPY, or staging table and
 * upsert when the window holds rows; price rollups, coverage rollup, reclassification, flow rollups),
 * all inside ONE transaction per data set that is rolled back at the end: the shared data sets stay
 * logically unchanged (the rolled-back rows are dead tuples until (auto)vacuum removes them).
 */
import type { Database } from '../src/db/client.js';
import { generateDemo } from '../src/demo/generate.js';
import { demoBorderHourRows, demoPriceRows } from '../src/demo/rows.js';
import type { StoredCatalogue } from '../src/domain/catalogue.js';
import { DEFAULT_THRESHOLDS } from '../src/domain/classification.js';
import { loadBorderHourRows, loadPriceRows } from '../src/ingest/items.js';
import { ensureCatalogue } from '../src/repositories/catalogue/catalogue.js';
import type { BorderHourRow, PricePointRow } from '../src/repositories/ingest/load.js';
import { inTransaction } from '../src/db/executor.js';

const HOUR_MS = 3_600_000;

/** A data set the year is loaded into. */
export interface YearLoadTarget {
  readonly years: number;
  readonly schema: string;
  readonly db: Database;
}

/** Seconds of one load: the zones' price windows, the borders' flow windows, and lock waits seen. */
interface YearLoad {
  readonly prices: number;
  readonly flows: number;
  readonly total: number;
  /** Samples (every 100 ms) in which the load waited on a lock, and in which another session waited on the load. */
  readonly waited: number;
  readonly blocked: number;
  readonly samples: number;
  /** The lock types waited on, and the lock types and statements (by name) of sessions kept waiting. */
  readonly locks: readonly string[];
}

/** Thrown inside the load's transaction to roll it back once measured. */
class RolledBack extends Error {
  constructor(readonly load: YearLoad) {
    super('rolled back on purpose');
  }
}

/** The first 1st of a month (UTC) after every set's last stored price and border-hour. */
async function yearAfter(targets: readonly YearLoadTarget[]): Promise<{ from: number; to: number }> {
  let last = 0;
  for (const t of targets) {
    const [r] = await t.db.rawQuery<{ last: Date }>(
      'SELECT greatest((SELECT max(ts) FROM price_point), (SELECT max(ts) FROM border_hour)) AS last',
    );
    last = Math.max(last, r!.last.getTime());
  }
  const d = new Date(last);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { from, to: Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth() + 1, 1) };
}

/** The ingest's windows of one year: per zone its prices, per border its physical flows. */
interface YearWindows {
  readonly prices: { code: string; rows: PricePointRow[] }[];
  readonly flows: { borderId: number; rows: BorderHourRow[] }[];
}

function windowsFor(data: ReturnType<typeof generateDemo>, catalogue: StoredCatalogue, hours: number): YearWindows {
  const slice = { from: 0, to: hours };
  const byZone = new Map<number, PricePointRow[]>();
  for (const r of demoPriceRows(data, catalogue, slice)) {
    const rows = byZone.get(r.zoneId) ?? [];
    rows.push(r);
    byZone.set(r.zoneId, rows);
  }
  const byBorder = new Map<number, BorderHourRow[]>();
  for (const r of demoBorderHourRows(data, catalogue, slice)) {
    const rows = byBorder.get(r.borderId) ?? [];
    rows.push({
      borderId: r.borderId,
      ts: r.ts,
      physicalAbMw: r.physicalAbMw ?? null,
      physicalBaMw: r.physicalBaMw ?? null,
      physicalInterpolated: r.physicalInterpolated ?? false,
      physicalSource: r.physicalSource ?? null,
    });
    byBorder.set(r.borderId, rows);
  }
  const zoneCode = new Map(catalogue.zones.map((z) => [z.id, z.code]));
  // Ascending ids: the coverage rollup's advisory locks, held to the end of this one transaction, are
  // then taken in the order every other loader takes them (zones, then borders, by id): no deadlock.
  return {
    prices: [...byZone].sort(([a], [b]) => a - b).map(([id, rows]) => ({ code: zoneCode.get(id)!, rows })),
    flows: [...byBorder].sort(([a], [b]) => a - b).map(([borderId, rows]) => ({ borderId, rows })),
  };
}

/** Samples every 100 ms whether backend `pid` waits on a lock, or holds one another session waits on. */
function lockSampler(db: Database, pid: number) {
  const counts = { waited: 0, blocked: 0, samples: 0, what: new Set<string>() };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    db.rawQuery<{ waited: string | null; blocked: string | null }>(
      `SELECT (SELECT string_agg(DISTINCT locktype, ',') FROM pg_locks WHERE pid = ${pid} AND NOT granted) AS waited,
              (SELECT string_agg(DISTINCT l.locktype || ' ' || coalesce(substring(a.query FROM '^/\\* (\\w+)'), left(a.query, 40)), ',')
                 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE NOT l.granted AND ${pid} = ANY(pg_blocking_pids(l.pid))) AS blocked`,
    )
      .then(([r]) => {
        counts.samples++;
        if (r?.waited) {
          counts.waited++;
          counts.what.add(`waited on ${r.waited}`);
        }
        if (r?.blocked) {
          counts.blocked++;
          counts.what.add(`blocked ${r.blocked}`);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, 100);
  return { counts, stop: () => clearInterval(timer) };
}

async function loadYear(t: YearLoadTarget, w: YearWindows, catalogue: StoredCatalogue): Promise<YearLoad> {
  const ctx = { catalogue, thresholds: DEFAULT_THRESHOLDS };
  try {
    await inTransaction(t.db, async (sql) => {
      const [me] = await sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const sampler = lockSampler(t.db, me!.pid);
      try {
        const start = performance.now();
        for (const z of w.prices) await loadPriceRows(sql, ctx, catalogue.zone(z.code)!, z.rows);
        const pricesDone = performance.now();
        for (const b of w.flows) await loadBorderHourRows(sql, ctx, b.borderId, b.rows, 'physical');
        const end = performance.now();
        const { waited, blocked, samples, what } = sampler.counts;
        throw new RolledBack({
          prices: (pricesDone - start) / 1000,
          flows: (end - pricesDone) / 1000,
          total: (end - start) / 1000,
          waited,
          blocked,
          samples,
          locks: [...what],
        });
      } finally {
        sampler.stop();
      }
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.load;
    throw error;
  }
  throw new Error('the year load committed: it must roll back');
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: readonly number[]) => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;

/**
 * Loads the year after the data sets' end into each set, `rounds` times, alternating the order, and
 * returns a Markdown section: per set min-max seconds of prices, flows and the whole load, the ratio
 * of the medians (last set / first), and the lock waits seen.
 */
export async function yearLoadSection(
  targets: readonly YearLoadTarget[],
  rounds: number,
  log: (m: string) => void,
): Promise<string> {
  const year = await yearAfter(targets);
  const hours = (year.to - year.from) / HOUR_MS;
  const data = generateDemo({ now: new Date(year.to), from: new Date(year.from) });
  const catalogues = await Promise.all(targets.map((t) => ensureCatalogue(t.db)));
  const loads: YearLoad[][] = targets.map(() => []);
  let rows = { prices: 0, hours: 0 };
  for (let round = 0; round < rounds; round++) {
    const order = targets.map((_, j) => j);
    if (round % 2) order.reverse();
    for (const j of order) {
      const w = windowsFor(data, catalogues[j]!, hours);
      rows = {
        prices: w.prices.reduce((n, z) => n + z.rows.length, 0),
        hours: w.flows.reduce((n, b) => n + b.rows.length, 0),
      };
      const load = await loadYear(targets[j]!, w, catalogues[j]!);
      loads[j]!.push(load);
      log(
        `year load round ${round + 1}/${rounds} ${targets[j]!.years} y: prices ${load.prices.toFixed(1)} s, flows ${load.flows.toFixed(1)} s, total ${load.total.toFixed(1)} s (rolled back); locks: ${load.locks.join('; ') || 'no waits'}`,
      );
    }
  }
  const [ref, big] = [0, targets.length - 1];
  const ratio = (f: (l: YearLoad) => number) => (median(loads[big]!.map(f)) / median(loads[ref]!.map(f))).toFixed(2);
  const span = `${new Date(year.from).toISOString().slice(0, 10)} .. ${new Date(year.to).toISOString().slice(0, 10)}`;
  return [
    `### One more year ingested into each data set (${span}: ${rows.prices} prices of ${data.prices.length} zones, ${rows.hours} border-hours of ${data.flows.length} borders)`,
    '',
    `Through the ingest's own window loads (\`loadPriceRows\` per zone, \`loadBorderHourRows\` per border: binary COPY, or staging table and upsert when the window holds rows; price rollups, coverage rollup, reclassification, flow rollups), all windows of a data set in ONE transaction that is ROLLED BACK after the clock stops: the shared data sets are left logically unchanged (the rows rolled back stay as dead tuples until (auto)vacuum). Rows are built before the clock starts. ${rounds} rounds, alternating the order. Lock waits: 100 ms samples in which the load waited on a lock / another session waited on the load's locks (the coverage rollup's advisory locks are per schema, zone and border id: while this transaction runs, loads of the same zones and borders into the same schema wait for it, loads into other schemas do not).`,
    '',
    '| data set | stored years | prices s | flows s | total s | lock waits (samples) |',
    '|---|---|---|---|---|---|',
    ...targets.map((t, j) => {
      const l = loads[j]!;
      const sum = (f: (x: YearLoad) => number) => l.reduce((n, x) => n + f(x), 0);
      return `| ${t.schema} | ${t.years} | ${range(l.map((x) => x.prices))} | ${range(l.map((x) => x.flows))} | ${range(l.map((x) => x.total))} | ${sum((x) => x.waited)} / ${sum((x) => x.blocked)} (${sum((x) => x.samples)}) |`;
    }),
    '',
    `Ratio of the medians, ${targets[big]!.years} y / ${targets[ref]!.years} y: prices ${ratio((l) => l.prices)}, flows ${ratio((l) => l.flows)}, total **${ratio((l) => l.total)}** (target: no slowdown as tables grow, about 1).`,
    '',
  ].join('\n');
}
