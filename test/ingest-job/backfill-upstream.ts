/**
 * A reduced backfill for the fake upstream: 3 zones, 2 borders, 3 months across a year boundary,
 * with documents made for the requested period (prices, flows, schedules and NTC of every hour,
 * values a function of the area and the hour; outages "No matching data"), and an independent
 * fingerprint of what a database holds after it.
 */
import { DATA_CATALOGUE } from '../../src/domain/catalogue.js';
import type { Doc, FakeUpstream, SeenRequest } from './fake-upstream.js';
import { a11, a44 } from './helpers.js';

/** The reduced backfill: its zones, borders and range (UTC). */
export const BACKFILL = {
  zones: ['ES', 'FR', 'PT'],
  borders: ['ES->FR', 'ES->PT'],
  from: '2024-11-01',
  to: '2025-02-01',
} as const;

/** The CLI arguments of the reduced backfill. */
export const BACKFILL_ARGS = [
  '--from',
  BACKFILL.from,
  '--to',
  BACKFILL.to,
  '--zones',
  BACKFILL.zones.join(','),
  '--borders',
  BACKFILL.borders.join(','),
];

/**
 * Windows and requests of the reduced backfill, by hand: every target gets 2 windows (2024-11-01..
 * 2025-01-01 and 2025-01-01..2025-02-01, split on the year); a price window touches 62 and 32
 * delivery days (under 100: one page); a border window asks both directions.
 */
export const BACKFILL_PLAN = {
  windows: 3 * 2 + 2 * 4 * 2, // 22
  requests: 3 * 2 * 1 + 2 * 4 * 2 * 2, // 38
} as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const hash = (text: string): number => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 10_007, 7);

/** `yyyyMMddHHmm` (UTC) as epoch ms. */
const instant = (p: string): number =>
  Date.UTC(+p.slice(0, 4), +p.slice(4, 6) - 1, +p.slice(6, 8), +p.slice(8, 10), +p.slice(10, 12));

const isoMinute = (ms: number): string => new Date(ms).toISOString().replace(':00.000Z', 'Z');

const hours = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, (to - from) / HOUR) }, (_, i) => from + i * HOUR);

/** Price of a zone in the hour starting at `ts`, EUR/MWh. */
const price = (eic: string, ts: number): number => 20 + (hash(eic) % 40) + ((ts / HOUR) % 24) * 2 + ((ts / DAY) % 7);

/** MW of a direction in the hour starting at `ts`; `kind` varies the series per document type. */
const mw = (kind: string, out: string, into: string, ts: number): number =>
  (hash(kind + out + into) % 900) + ((ts / HOUR) % 24) * 15;

function prices(eic: string, from: number, to: number): string {
  const series: string[] = [];
  for (let day = from; day < to; day += DAY) {
    const values = hours(day, Math.min(day + DAY, to)).map((ts) => price(eic, ts));
    series.push(a44(eic, isoMinute(day), values).replace(/^[\s\S]*?(<TimeSeries>[\s\S]*<\/TimeSeries>)[\s\S]*$/, '$1'));
  }
  return a44(eic, isoMinute(from), [0]).replace(/<TimeSeries>[\s\S]*<\/TimeSeries>/, series.join('\n'));
}

function directed(type: 'A11' | 'A09' | 'A61', out: string, into: string, from: number, to: number): string {
  const values = hours(from, to).map((ts) =>
    type === 'A61' ? 1500 + (hash(out + into) % 500) : mw(type, out, into, ts),
  );
  return a11(out, into, isoMinute(from), values).replace('<type>A11</type>', `<type>${type}</type>`);
}

/** The document of a request for the requested period; undefined ("No matching data") for outages. */
export function periodDocument(params: URLSearchParams): Doc | undefined {
  const type = params.get('documentType');
  const from = instant(params.get('periodStart')!);
  const to = instant(params.get('periodEnd')!);
  const into = params.get('in_Domain')!;
  const out = params.get('out_Domain')!;
  if (type === 'A44') return params.get('offset') ? undefined : { body: prices(into, from, to) };
  if (type === 'A11' || type === 'A09' || type === 'A61') return { body: directed(type, out, into, from, to) };
  return undefined;
}

/** Serves {@link periodDocument} on the fake. */
export function serveBackfill(fake: FakeUpstream): void {
  fake.respond(periodDocument);
}

const ITEM_OF_DOCUMENT: Record<string, string> = {
  A44: 'prices',
  A11: 'flows',
  A09: 'schedules',
  A61: 'ntc',
  A78: 'outages',
};

const areaOfEics = (() => {
  const byEic = new Map(DATA_CATALOGUE.zones.map((z) => [z.eic, z.code]));
  return (a: string, b: string): string => {
    const [x, y] = [byEic.get(a)!, byEic.get(b)!];
    if (x === y) return x;
    return DATA_CATALOGUE.borders.find((br) => (br.a === x && br.b === y) || (br.a === y && br.b === x))!.key;
  };
})();

/** The window a request belongs to, as `item area start..end` with the request's period in ISO. */
export function windowOfRequest(r: SeenRequest): string {
  const p = r.params;
  const iso = (v: string | undefined) => new Date(instant(v!)).toISOString();
  return `${ITEM_OF_DOCUMENT[p.documentType!]} ${areaOfEics(p.in_Domain!, p.out_Domain!)} ${iso(p.periodStart)}..${iso(p.periodEnd)}`;
}

/** The same key for a ledger row. */
export function windowOfLedger(w: { item: string; area_key: string; window_start: Date; window_end: Date }): string {
  return `${w.item} ${w.area_key} ${new Date(w.window_start).toISOString()}..${new Date(w.window_end).toISOString()}`;
}

/** The done windows of the ledger as {@link windowOfLedger} keys. */
export const DONE_WINDOWS_SQL = `SELECT item, area_key, window_start, window_end FROM ingestion_window WHERE status = 'done'`;

/**
 * Counts, exact sums and content digests of every table a backfill writes, by SQL written here
 * apart from the loaders: two databases holding the same data give the same rows.
 */
export const FINGERPRINT_SQL = `
SELECT t, v FROM (
SELECT 'price_point' AS t, count(*)::text || ' ' || coalesce(sum(price_eur_mwh::numeric), 0)::text || ' ' ||
       coalesce(md5(string_agg(concat_ws(',', z.code, p.ts, p.period_minutes, p.price_eur_mwh, p.interpolated, p.source), '|' ORDER BY z.code, p.ts)), '') AS v
  FROM price_point p JOIN zone z ON z.id = p.zone_id
UNION ALL
SELECT 'price_daily', count(*)::text || ' ' || coalesce(round(sum(weighted_sum::numeric), 6), 0)::text || ' ' || coalesce(sum(minutes), 0)::text FROM price_daily
UNION ALL
SELECT 'price_hourly', count(*)::text || ' ' || coalesce(round(sum(price_eur_mwh::numeric), 6), 0)::text || ' ' || count(*) FILTER (WHERE peak)::text FROM price_hourly
UNION ALL
SELECT 'border_hour', count(*)::text || ' ' ||
       concat_ws(' ', sum(physical_ab_mw::numeric), sum(physical_ba_mw::numeric), sum(scheduled_ab_mw::numeric), sum(scheduled_ba_mw::numeric),
                 sum(ntc_ab_mw::numeric), sum(ntc_ba_mw::numeric), round(sum(net_flow_mw::numeric), 6)) || ' ' ||
       coalesce(md5(string_agg(concat_ws(',', b.border_id, b.ts, b.physical_ab_mw, b.physical_ba_mw, b.scheduled_ab_mw, b.scheduled_ba_mw,
                 b.ntc_ab_mw, b.ntc_ba_mw, b.flow_type, b.export_from_a, b.net_flow_mw, b.price_a_eur_mwh, b.price_b_eur_mwh,
                 b.flow_derived, b.scheduled_flow_type, b.scheduled_export_from_a), '|' ORDER BY b.border_id, b.ts)), '')
  FROM border_hour b
UNION ALL
SELECT 'flow_types', coalesce(string_agg(n, ' ' ORDER BY n), '') FROM (SELECT concat(flow_type, '=', count(*)) AS n FROM border_hour GROUP BY flow_type) f
UNION ALL
SELECT 'border_daily', count(*)::text || ' ' || coalesce(sum(hours), 0)::text || ' ' || coalesce(round(sum(net_flow_sum::numeric), 6), 0)::text || ' ' || coalesce(round(sum(capacity_sum::numeric), 6), 0)::text FROM border_daily
UNION ALL
SELECT 'border_weekly', count(*)::text || ' ' || coalesce(sum(hours), 0)::text || ' ' || coalesce(round(sum(net_flow_sum::numeric), 6), 0)::text FROM border_weekly
UNION ALL
SELECT 'zone_daily', count(*)::text || ' ' || coalesce(sum(ci_hours), 0)::text || ' ' || coalesce(sum(assessed_hours), 0)::text FROM zone_daily
UNION ALL
SELECT 'border_outage', count(*)::text FROM border_outage
UNION ALL
SELECT 'coverage', coalesce(string_agg(concat_ws(',', kind, subject_id, source, first_start, last_start, last_end), '|' ORDER BY kind, subject_id, source), '') FROM coverage
UNION ALL
SELECT 'windows_done', count(*)::text || ' ' || coalesce(sum(rows), 0)::text FROM ingestion_window WHERE status = 'done'
) f ORDER BY t`;
