/**
 * Ingestion speed: parse and load one year of one zone's 15-minute day-ahead prices (365 days x 96
 * = 35,040 points, four A44 pages of at most 100 TimeSeries as the platform serves them), through
 * the job's own path: parse, then one transaction with the bulk upsert, the daily rollup, the
 * reclassification of the zone's borders and the window record.
 *
 *   npx tsx bench/ingest.ts [--pg-url postgresql://postgres@127.0.0.1:5432/test] [--skip-pg]
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { testConfig } from '../src/config.js';
import { type Database, openPglite, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { DEFAULT_THRESHOLDS } from '../src/domain/classification.js';
import type { EntsoeReply } from '../src/ingest/client.js';
import { loadPriceRows, priceRows } from '../src/ingest/items.js';
import { ensureCatalogue } from '../src/repositories/catalogue/catalogue.js';
import { recordWindow } from '../src/repositories/ingest/ledger.js';
import { finishRun, startRun } from '../src/repositories/ingest/runs.js';
import { inTransaction } from '../src/db/executor.js';

const DAY = 86_400_000;
const YEAR_START = Date.UTC(2025, 0, 1);

/** A44 pages of one zone for 2025: one TimeSeries of 96 quarter-hours per day, 100 per page. */
export function yearOfQuarterHourPages(eic: string, days = 365, perPage = 100): EntsoeReply[] {
  const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');
  const pages: EntsoeReply[] = [];
  for (let first = 0; first < days; first += perPage) {
    const parts = [
      '<?xml version="1.0" encoding="utf-8"?>\n<Publication_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3">',
      '<mRID>bench</mRID><revisionNumber>1</revisionNumber><type>A44</type>',
    ];
    for (let d = first; d < Math.min(days, first + perPage); d++) {
      const start = YEAR_START + d * DAY;
      parts.push(`<TimeSeries><mRID>${d + 1}</mRID><auction.type>A01</auction.type><businessType>A62</businessType>`);
      parts.push(
        `<in_Domain.mRID codingScheme="A01">${eic}</in_Domain.mRID><out_Domain.mRID codingScheme="A01">${eic}</out_Domain.mRID>`,
      );
      parts.push(
        '<contract_MarketAgreement.type>A01</contract_MarketAgreement.type><currency_Unit.name>EUR</currency_Unit.name><price_Measure_Unit.name>MWH</price_Measure_Unit.name><curveType>A01</curveType>',
      );
      parts.push(
        `<Period><timeInterval><start>${iso(start)}</start><end>${iso(start + DAY)}</end></timeInterval><resolution>PT15M</resolution>`,
      );
      for (let p = 1; p <= 96; p++)
        parts.push(
          `<Point><position>${p}</position><price.amount>${(40 + 30 * Math.sin((d * 96 + p) / 40)).toFixed(2)}</price.amount></Point>`,
        );
      parts.push('</Period></TimeSeries>');
    }
    parts.push('</Publication_MarketDocument>');
    pages.push({ status: 200, body: new TextEncoder().encode(parts.join('\n')), contentType: 'text/xml' });
  }
  return pages;
}

/**
 * Seconds to parse and load one year of 15-minute prices of `zone` into a migrated database, as the
 * job does it. `fresh` (default) deletes the zone's 2025 prices first (COPY path); otherwise the
 * rows are reloaded over themselves (staging + upsert path).
 */
export async function benchIngestYear(db: Database, opts: { zone?: string; fresh?: boolean } = {}): Promise<number> {
  const catalogue = await ensureCatalogue(db);
  const zone = catalogue.zones.find((z) => z.code === (opts.zone ?? 'NL'));
  if (!zone) throw new Error(`zone ${opts.zone} not in the catalogue`);
  const pages = yearOfQuarterHourPages(zone.eic);
  const range = [new Date(YEAR_START).toISOString(), new Date(YEAR_START + 365 * DAY).toISOString()];
  if (opts.fresh ?? true) {
    await db.rawQuery('DELETE FROM price_point WHERE zone_id = $1 AND ts >= $2 AND ts < $3', [zone.id, ...range]);
    await db.rawQuery('DELETE FROM price_daily WHERE zone_id = $1 AND day >= $2::date AND day < $3::date', [
      zone.id,
      ...range,
    ]);
  }
  const window = { item: 'prices', areaKey: zone.code, start: new Date(range[0]!), end: new Date(range[1]!) };
  const run = await startRun(db, { bench: 'ingest' }, new Date());
  try {
    const started = performance.now();
    const rows = priceRows(pages, zone);
    if (rows.length !== 35_040) throw new Error(`expected 35040 points, parsed ${rows.length}`);
    await inTransaction(db, async (sql) => {
      await loadPriceRows(sql, { catalogue, thresholds: DEFAULT_THRESHOLDS }, zone, rows);
      await recordWindow(sql, run.id, window, { status: 'done', rows: rows.length, error: null, at: new Date() });
    });
    const seconds = (performance.now() - started) / 1000;
    await finishRun(db, run.id, 'done', null, new Date());
    return seconds;
  } finally {
    await run.release();
  }
}

async function measure(name: string, db: Database): Promise<string> {
  await migrate(db);
  const runs = { fresh: [] as number[], reload: [] as number[] };
  for (let i = 0; i < 3; i++) {
    runs.fresh.push(await benchIngestYear(db, { fresh: true }));
    runs.reload.push(await benchIngestYear(db, { fresh: false }));
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
  return `${name}: parse + load 35,040 points, into empty range ${fmt(runs.fresh)} s; over existing rows ${fmt(runs.reload)} s`;
}

/** Runs the ingest benchmark on in-memory PGlite and (unless skipPg) PostgreSQL; one line per engine. */
export async function runIngestBench(pgUrl: string, skipPg: boolean): Promise<string[]> {
  const lines: string[] = [];
  const lite = await openPglite('memory://');
  try {
    lines.push(await measure('PGlite (memory)', lite));
  } finally {
    await lite.close();
  }
  if (skipPg) return lines;
  const schema = `bench_ingest_${process.pid}`;
  const pg = await openPostgres(testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 2 }), pgUrl);
  try {
    lines.push(await measure('PostgreSQL', pg));
  } finally {
    await pg.execScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await pg.close();
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'pg-url': { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/test' },
      'skip-pg': { type: 'boolean', default: false },
    },
  });
  for (const line of await runIngestBench(values['pg-url']!, values['skip-pg']!)) console.log(line);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
