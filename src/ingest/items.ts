/**
 * Per-item fetch, parse and load of one request window. Fetching and parsing happen before any
 * transaction; the returned `load` runs inside the window's transaction and writes the rows, then
 * recomputes what depends on them (price rollup, classification of the affected border-hours,
 * flow rollups). Prices EUR/MWh, power MW, instants UTC; every value is stored with source `entsoe`.
 */
import { HOUR_MS } from '../domain/calendar.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import type { StoredCatalogue, ZoneRecord } from '../domain/catalogue.js';
import { refreshFlowRollups } from '../repositories/flows/rollup.js';
import { borderHourSpan, deleteOutagesByMrid } from '../repositories/ingest/ledger.js';
import { addOutageHours, dropUncoveredOutageHours } from '../repositories/ingest/outage-hours.js';
import {
  type BorderHourGroup,
  type BorderHourRow,
  type BorderOutageRow,
  type PricePointRow,
  loadBorderHours,
  loadOutages,
  loadPrices,
} from '../repositories/ingest/load.js';
import { reclassify } from '../repositories/flows/reclassify.js';
import type { Sql } from '../db/executor.js';
import type { EntsoeClient, EntsoeReply, EntsoeRequest } from './client.js';
import {
  type DayAheadPrices,
  type DirectedHourlySeries,
  type EntsoeResult,
  type TransmissionOutage,
  parseNetTransferCapacity,
  parsePhysicalFlows,
  parseScheduledExchanges,
} from './entsoe/index.js';
import { dataOf, OUTAGE_PAGES, PRICE_PAGES, fetchPages } from './paging.js';
import type { PlannedWindow } from './windows.js';

/** What the items need from the job. */
export interface ItemContext {
  readonly client: EntsoeClient;
  readonly catalogue: StoredCatalogue;
  readonly thresholds: ClassificationThresholds;
}

/** What writing needs: the stored catalogue and the classification thresholds. */
export type LoadContext = Pick<ItemContext, 'catalogue' | 'thresholds'>;

/** A fetched and parsed window, ready to be written inside a transaction. */
export interface PreparedWindow {
  readonly rows: number;
  load(sql: Sql): Promise<void>;
  /** Why the window cannot be done yet (the upstream has not published its data): nothing is written, the next run fetches it again. */
  readonly unpublished?: string;
  /** What the upstream sent that was left out, for the log. */
  readonly ignored?: string;
}

const SOURCE = 'entsoe' as const;

function zoneOf(ctx: ItemContext, code: string) {
  const zone = ctx.catalogue.zone(code);
  if (!zone) throw new Error(`zone ${code} is not in the stored catalogue`);
  return zone;
}

function borderOf(ctx: ItemContext, key: string) {
  const border = ctx.catalogue.border(key);
  if (!border) throw new Error(`border ${key} is not in the stored catalogue`);
  return { border, a: zoneOf(ctx, border.a), b: zoneOf(ctx, border.b) };
}

/**
 * Reclassifies border-hours of some borders over [from, to), then refreshes those borders' (and
 * their zones') flow rollups when border facts were loaded (`factsChanged`) or a stored classification changed.
 */
async function reclassifyRange(
  sql: Sql,
  ctx: LoadContext,
  range: { from: Date; to: Date },
  borderIds: readonly number[],
  factsChanged: boolean,
): Promise<void> {
  if (range.from >= range.to || borderIds.length === 0) return;
  const result = await reclassify(sql, { ...range, borderIds, thresholds: ctx.thresholds });
  if (factsChanged || result.changed > 0) await refreshFlowRollups(sql, range, borderIds);
}

/** Price rows of a zone from parsed A44 pages; a period published twice keeps its first value. */
export function zonePriceRows(
  pages: readonly (DayAheadPrices | null)[],
  zone: { id: number; eic: string },
): PricePointRow[] {
  const byTs = new Map<number, PricePointRow>();
  for (const data of pages) {
    for (const series of data?.series ?? []) {
      if (series.zoneEic !== zone.eic) continue;
      for (const p of series.points) {
        const key = p.ts.getTime();
        if (!byTs.has(key))
          byTs.set(key, {
            zoneId: zone.id,
            ts: p.ts,
            periodMinutes: p.periodMinutes,
            priceEurMwh: p.priceEurMwh,
            interpolated: p.interpolated,
            source: SOURCE,
          });
      }
    }
  }
  return [...byTs.values()].sort((x, y) => x.ts.getTime() - y.ts.getTime());
}

/** Price rows of a zone from A44 replies (see {@link zonePriceRows}). */
export function priceRows(replies: readonly EntsoeReply[], zone: { id: number; eic: string }): PricePointRow[] {
  return zonePriceRows(
    replies.map((r) => PRICE_PAGES.read(r).data),
    zone,
  );
}

/** Writes price rows, refreshes the daily rollup, reclassifies the zone's borders over the touched hours. */
export async function loadPriceRows(
  sql: Sql,
  ctx: LoadContext,
  zone: ZoneRecord,
  rows: readonly PricePointRow[],
): Promise<void> {
  const touched = await loadPrices(sql, rows);
  if (!touched) return;
  const borderIds = ctx.catalogue.bordersOf(zone.code).map((b) => b.id);
  await reclassifyRange(sql, ctx, touched, borderIds, false);
}

/** The ignored series of parsed A44 pages with counts and hours, e.g. `ignored 2 series: 2 of sequence 2 (48 h)`; undefined when none. */
export function ignoredSeriesText(pages: readonly (DayAheadPrices | null)[]): string | undefined {
  const ignored = pages.flatMap((p) => p?.ignored ?? []);
  if (!ignored.length) return undefined;
  const groups = new Map<string, { count: number; ms: number }>();
  for (const s of ignored) {
    const name =
      s.reason === 'other-sequence'
        ? `of sequence ${s.sequence}`
        : `not day-ahead (contract ${s.contractType ?? 'none'})`;
    const group = groups.get(name) ?? { count: 0, ms: 0 };
    group.count++;
    group.ms += s.start && s.end ? s.end.getTime() - s.start.getTime() : 0;
    groups.set(name, group);
  }
  const parts = [...groups].map(([name, g]) => `${g.count} ${name} (${g.ms / HOUR_MS} h)`);
  return `ignored ${ignored.length} series: ${parts.join(', ')}`;
}

async function preparePrices(ctx: ItemContext, w: PlannedWindow, signal?: AbortSignal): Promise<PreparedWindow> {
  const zone = zoneOf(ctx, w.areaKey);
  const req: EntsoeRequest = {
    documentType: 'A44',
    contractType: 'A01',
    inDomain: zone.eic,
    outDomain: zone.eic,
    periodStart: w.start,
    periodEnd: w.end,
  };
  const pages = await fetchPages(ctx.client, req, PRICE_PAGES, signal);
  const rows = zonePriceRows(pages, zone);
  const ignored = ignoredSeriesText(pages);
  const unpublished = rows.length
    ? undefined
    : `no day-ahead prices for ${zone.code} upstream yet${ignored ? ` (${ignored})` : ''}`;
  return {
    rows: rows.length,
    load: (sql) => loadPriceRows(sql, ctx, zone, rows),
    ...(unpublished ? { unpublished } : {}),
    ...(ignored ? { ignored } : {}),
  };
}

type HourlyParser = (body: Uint8Array, status: number) => EntsoeResult<readonly DirectedHourlySeries[]>;

const HOURLY: Record<
  'flows' | 'schedules' | 'ntc',
  { doc: EntsoeRequest['documentType']; contract?: string; group: BorderHourGroup; parse: HourlyParser }
> = {
  flows: { doc: 'A11', group: 'physical', parse: (b, s) => parsePhysicalFlows(b, { httpStatus: s }) },
  // No contract filter: the reply holds A05 (total) and A01 (day-ahead); the parser prefers A05.
  schedules: { doc: 'A09', group: 'scheduled', parse: (b, s) => parseScheduledExchanges(b, { httpStatus: s }) },
  ntc: { doc: 'A61', contract: 'A01', group: 'ntc', parse: (b, s) => parseNetTransferCapacity(b, { httpStatus: s }) },
};

function hourlyValues(
  reply: EntsoeReply,
  parse: HourlyParser,
  fromEic: string,
  toEic: string,
): Map<number, { mw: number; interpolated: boolean }> {
  const out = new Map<number, { mw: number; interpolated: boolean }>();
  for (const s of dataOf(parse(reply.body, reply.status)) ?? []) {
    if (s.fromZoneEic !== fromEic || s.toZoneEic !== toEic) continue;
    for (const p of s.points)
      if (!out.has(p.ts.getTime())) out.set(p.ts.getTime(), { mw: p.mw, interpolated: p.interpolated });
  }
  return out;
}

function borderHourRow(
  group: BorderHourGroup,
  borderId: number,
  ts: number,
  ab?: { mw: number; interpolated: boolean },
  ba?: { mw: number; interpolated: boolean },
): BorderHourRow {
  const base = { borderId, ts: new Date(ts) };
  const [abMw, baMw] = [ab?.mw ?? null, ba?.mw ?? null];
  const interpolated = Boolean(ab?.interpolated || ba?.interpolated);
  if (group === 'physical')
    return {
      ...base,
      physicalAbMw: abMw,
      physicalBaMw: baMw,
      physicalInterpolated: interpolated,
      physicalSource: SOURCE,
    };
  if (group === 'scheduled')
    return {
      ...base,
      scheduledAbMw: abMw,
      scheduledBaMw: baMw,
      scheduledInterpolated: interpolated,
      scheduledSource: SOURCE,
    };
  return { ...base, ntcAbMw: abMw, ntcBaMw: baMw, ntcSource: SOURCE };
}

async function prepareBorderHours(
  ctx: ItemContext,
  w: PlannedWindow & { item: 'flows' | 'schedules' | 'ntc' },
  signal?: AbortSignal,
): Promise<PreparedWindow> {
  const spec = HOURLY[w.item];
  const { border, a, b } = borderOf(ctx, w.areaKey);
  const base = { documentType: spec.doc, contractType: spec.contract, periodStart: w.start, periodEnd: w.end };
  const abReply = await ctx.client.get({ ...base, outDomain: a.eic, inDomain: b.eic }, signal);
  const baReply = await ctx.client.get({ ...base, outDomain: b.eic, inDomain: a.eic }, signal);
  const ab = hourlyValues(abReply, spec.parse, a.eic, b.eic);
  const ba = hourlyValues(baReply, spec.parse, b.eic, a.eic);
  const hours = [...new Set([...ab.keys(), ...ba.keys()])].sort((x, y) => x - y);
  const rows = hours.map((ts) => borderHourRow(spec.group, border.id, ts, ab.get(ts), ba.get(ts)));
  return { rows: rows.length, load: (sql) => loadBorderHourRows(sql, ctx, border.id, rows, spec.group) };
}

/**
 * Writes one border's hourly rows (MW) of one column group, reclassifies the border over the
 * touched hours and refreshes the flow rollups of those days: the load of a flows, schedules or
 * NTC window.
 */
export async function loadBorderHourRows(
  sql: Sql,
  ctx: LoadContext,
  borderId: number,
  rows: readonly BorderHourRow[],
  group: BorderHourGroup,
): Promise<void> {
  const touched = await loadBorderHours(sql, rows, [group]);
  if (touched) await reclassifyRange(sql, ctx, touched, [borderId], true);
}

/** Keeps the highest revision of each mRID across pages and directions. */
function latestRevisions(outages: readonly TransmissionOutage[]): TransmissionOutage[] {
  const byMrid = new Map<string, TransmissionOutage[]>();
  for (const o of outages) {
    const held = byMrid.get(o.mRID);
    if (!held || held[0]!.revisionNumber < o.revisionNumber) byMrid.set(o.mRID, [o]);
    else if (held[0]!.revisionNumber === o.revisionNumber) held.push(o);
  }
  return [...byMrid.values()].flat();
}

/** Outage rows of one border: active outages of the latest revisions, one per interval. */
export function outageRows(outages: readonly TransmissionOutage[], borderId: number): BorderOutageRow[] {
  const byInterval = new Map<string, BorderOutageRow>();
  for (const o of outages) {
    if (o.status !== 'active') continue;
    const key = `${o.start.getTime()}|${o.end.getTime()}`;
    if (!byInterval.has(key))
      byInterval.set(key, {
        borderId,
        startsAt: o.start,
        endsAt: o.end,
        planned: o.planned,
        reason: o.reasonText,
        mrid: o.mRID,
        source: SOURCE,
      });
  }
  return [...byInterval.values()];
}

async function prepareOutages(ctx: ItemContext, w: PlannedWindow, signal?: AbortSignal): Promise<PreparedWindow> {
  const { border, a, b } = borderOf(ctx, w.areaKey);
  const pair = new Set([a.eic, b.eic]);
  const all: TransmissionOutage[] = [];
  for (const [out, into] of [
    [a, b],
    [b, a],
  ] as const) {
    const req: EntsoeRequest = {
      documentType: 'A78',
      outDomain: out.eic,
      inDomain: into.eic,
      periodStart: w.start,
      periodEnd: w.end,
    };
    for (const parsed of await fetchPages(ctx.client, req, OUTAGE_PAGES, signal)) {
      all.push(...parsed.filter((o) => pair.has(o.fromZoneEic) && pair.has(o.toZoneEic)));
    }
  }
  const latest = latestRevisions(all);
  const rows = outageRows(latest, border.id);
  return {
    rows: rows.length,
    async load(sql) {
      const removed = await deleteOutagesByMrid(sql, border.id, [...new Set(latest.map((o) => o.mRID))]);
      await loadOutages(sql, rows);
      const spans = [...removed, ...rows];
      if (spans.length === 0) return;
      const hours = {
        borderId: border.id,
        from: new Date(Math.floor(w.start.getTime() / HOUR_MS) * HOUR_MS),
        to: new Date(Math.ceil(w.end.getTime() / HOUR_MS) * HOUR_MS),
      };
      const changedRows = (await addOutageHours(sql, hours)) + (await dropUncoveredOutageHours(sql, hours));
      const from = new Date(Math.min(...spans.map((s) => s.startsAt.getTime())));
      const to = new Date(Math.max(...spans.map((s) => s.endsAt.getTime())));
      const stored = await borderHourSpan(sql, border.id, new Date(from.getTime() - HOUR_MS + 1), to);
      const span = stored ? { from: stored.first, to: new Date(stored.last.getTime() + HOUR_MS) } : null;
      const range =
        changedRows > 0
          ? {
              from: new Date(Math.min(span?.from.getTime() ?? Infinity, hours.from.getTime())),
              to: new Date(Math.max(span?.to.getTime() ?? -Infinity, hours.to.getTime())),
            }
          : span;
      if (range) await reclassifyRange(sql, ctx, range, [border.id], changedRows > 0);
    },
  };
}

/**
 * Fetches and parses one window.
 * @throws the client's and parsers' errors (EntsoeAuthError, EntsoeTransportError, EntsoeUpstreamError...).
 */
export function prepareWindow(ctx: ItemContext, w: PlannedWindow, signal?: AbortSignal): Promise<PreparedWindow> {
  switch (w.item) {
    case 'prices':
      return preparePrices(ctx, w, signal);
    case 'outages':
      return prepareOutages(ctx, w, signal);
    default:
      return prepareBorderHours(ctx, { ...w, item: w.item }, signal);
  }
}
