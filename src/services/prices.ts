import { lineageSegments } from '../domain/lineage.js';
import { applyResolution, type RequestedResolution, type Resolution } from '../domain/resolution.js';
import type { TimeRange } from '../domain/time.js';
import { intersect } from '../domain/validity.js';
import { IssueCollector } from '../errors.js';
import { countPrices, findPriceSources, findPrices, type PriceQuery } from '../repositories/prices/rows.js';
import type { PriceRecord } from '../domain/records.js';
import type { ServiceDeps } from './context.js';
import { type Meta, provenanceOf, sourceLabels } from './meta.js';
import { type AppliedTimeZone, rowZoneOf, type RowsWithZone } from './time-zone.js';
import { checkZonePeriods } from './validity.js';
import { resolveZoneSelection } from './zone-selection.js';

/** Price request as both surfaces receive it (REST parameter semantics). */
export interface PricesInput {
  readonly zones?: readonly string[];
  readonly datetimeFrom?: string;
  readonly datetimeTo?: string;
  readonly resolution?: RequestedResolution;
  /** `tz`: an IANA zone, `UTC` or `local`; omitted: UTC. */
  readonly tz?: string;
  /** Each named zone answers with its lineage (its chained predecessors before it existed). */
  readonly lineage?: boolean;
  /** Any range at any resolution (exports, GraphQL connections): the spec's caps do not apply. */
  readonly anyRange?: boolean;
}

/** Part of a lineage series: one zone's prices over the part of the range it stands for the series. */
export interface SeriesPart {
  /** The requested zone (code). */
  readonly series: string;
  /** The zone whose prices these are. */
  readonly zoneId: number;
  readonly range: TimeRange;
}

/** A resolved price request: zones, UTC range and applied resolution. */
export interface ResolvedPriceQuery {
  readonly zoneIds: number[];
  /** `zoneIds` are every zone of the catalogue. */
  readonly allZones: boolean;
  readonly range: TimeRange;
  readonly resolution: Resolution;
  readonly timeZone: AppliedTimeZone;
  /**
   * With lineage, the series some other zone stands for over part of the range (DE_AT_LU for
   * DE_LU before 2018-09-30T22:00Z, and DE_LU itself after); `zoneIds` then holds the zones that
   * answer the whole range as themselves. Empty without lineage.
   */
  readonly seriesParts: readonly SeriesPart[];
}

/** The zones of a request and, with lineage, the parts of the range each lineage zone answers. */
function lineageParts(
  deps: ServiceDeps,
  codes: readonly string[],
  range: TimeRange,
): { plain: string[]; parts: SeriesPart[] } {
  const plain: string[] = [];
  const parts: SeriesPart[] = [];
  const whole = { from: range.from.getTime(), to: range.to.getTime() };
  for (const code of codes) {
    const segments = lineageSegments(code).flatMap((s) => {
      const p = intersect(s.period, whole);
      const zone = deps.catalogue.zone(s.zone);
      return p && zone
        ? [{ series: code, zoneId: zone.id, zone: s.zone, range: { from: new Date(p.from), to: new Date(p.to) } }]
        : [];
    });
    if (segments.length === 1 && segments[0]!.zone === code) plain.push(code);
    else parts.push(...segments.map(({ series, zoneId, range: r }) => ({ series, zoneId, range: r })));
  }
  return { plain, parts };
}

/** Validates and resolves a price request. @throws InputError (422) on any invalid input. */
export function resolvePriceQuery(deps: ServiceDeps, input: PricesInput): ResolvedPriceQuery {
  const check = new IssueCollector();
  const { explicit, codes, lineage, timeZone, range } = resolveZoneSelection(deps, check, input);
  const resolution = range && check.attempt(() => applyResolution(input.resolution ?? 'auto', range, input.anyRange));
  if (range && explicit) check.attempt(() => checkZonePeriods(deps, codes, range, { lineage, lineageOffered: true }));
  check.done();
  const { plain, parts } = lineage ? lineageParts(deps, codes, range!) : { plain: codes, parts: [] };
  const zoneIds = plain.flatMap((c) => deps.catalogue.zone(c)?.id ?? []);
  const allZones = zoneIds.length === deps.catalogue.zones.length;
  return { zoneIds, allZones, range: range!, resolution: resolution!, timeZone: timeZone!, seriesParts: parts };
}

function toQuery(q: ResolvedPriceQuery): PriceQuery {
  const query = {
    zoneIds: q.zoneIds,
    allZones: q.allZones,
    from: q.range.from,
    to: q.range.to,
    resolution: q.resolution,
  };
  const tz = q.timeZone.byZoneId;
  return tz && q.resolution !== 'native' ? { ...query, timeZones: tz } : query;
}

/**
 * The queries of a request with the series each answers (undefined: its zones as themselves): the
 * zones answering the whole range, then each lineage part.
 */
function seriesQueries(q: ResolvedPriceQuery): { query: PriceQuery; series?: string }[] {
  const base = toQuery(q);
  const parts = q.seriesParts.map((p) => ({
    query: { ...base, zoneIds: [p.zoneId], allZones: false, from: p.range.from, to: p.range.to },
    series: p.series,
  }));
  return q.zoneIds.length || !parts.length ? [{ query: base }, ...parts] : parts;
}

/** (datetime, series, zone) order of lineage rows; without lineage series is the zone. */
function bySeries(x: PriceRecord, y: PriceRecord): number {
  const d = x.datetime.getTime() - y.datetime.getTime();
  if (d) return d;
  const [sx, sy] = [x.series ?? x.zone, y.series ?? y.zone];
  if (sx !== sy) return sx < sy ? -1 : 1;
  return x.zone < y.zone ? -1 : x.zone > y.zone ? 1 : 0;
}

/** A keyset position of price rows: (datetime, zone), with lineage (datetime, series, zone). */
export interface PriceAfter {
  readonly datetime: Date;
  readonly zone: string;
  readonly series?: string;
}

/** The rows of every series query, in (datetime, series, zone) order; after `after`, at most `limit`. */
async function findSeriesPrices(
  deps: ServiceDeps,
  q: ResolvedPriceQuery,
  page: { after?: PriceAfter | undefined; limit?: number } = {},
): Promise<PriceRecord[]> {
  const { after, limit } = page;
  const found = await Promise.all(
    seriesQueries(q).map(async ({ query, series }) => {
      const keyset =
        after && limit !== undefined
          ? { after: { datetime: after.datetime, zone: '' }, limit: limit + query.zoneIds.length }
          : {};
      const rows = await findPrices(deps.db, { ...query, ...keyset });
      return series === undefined ? rows : rows.map((r) => ({ ...r, series }));
    }),
  );
  const marker = after && {
    datetime: after.datetime,
    zone: after.zone,
    price: 0,
    interpolated: false,
    series: after.series ?? after.zone,
  };
  const rows = found
    .flat()
    .filter((r) => !marker || bySeries(r, marker) > 0)
    .sort(bySeries);
  return limit === undefined ? rows : rows.slice(0, limit);
}

/** meta of a price response: measured upstream values (demo data: derived), sources from the stored data. */
export async function priceMeta(deps: ServiceDeps, q: ResolvedPriceQuery): Promise<Meta> {
  const zoneIds = [...new Set([...q.zoneIds, ...q.seriesParts.map((p) => p.zoneId)])];
  const sources = await findPriceSources(deps.db, { ...toQuery(q), zoneIds }, deps.memo);
  return {
    provenance: provenanceOf('measured', sources),
    upstreamSources: sourceLabels(sources),
    range: q.range,
    resolution: q.resolution,
    pagination: null,
    timeZone: q.timeZone.label,
  };
}

/** Day-ahead prices (EUR/MWh) for the request, every row of the range (REST /prices). */
export async function getPrices(deps: ServiceDeps, input: PricesInput): Promise<RowsWithZone<PriceRecord>> {
  const q = resolvePriceQuery(deps, input);
  const rows = q.seriesParts.length ? findSeriesPrices(deps, q) : findPrices(deps.db, toQuery(q));
  const [found, meta] = await Promise.all([rows, priceMeta(deps, q)]);
  const zoneOf = rowZoneOf(q.timeZone);
  return { meta, rows: found, rowTimeZone: zoneOf && ((r) => zoneOf(r.zone)) };
}

/**
 * One keyset page of prices: rows after `after` in (datetime, zone) order (with lineage parts:
 * (datetime, series, zone)), at most `limit`.
 */
export async function getPriceKeysetPage(
  deps: ServiceDeps,
  q: ResolvedPriceQuery,
  page: { after?: PriceAfter | undefined; limit: number },
): Promise<PriceRecord[]> {
  if (q.seriesParts.length) return findSeriesPrices(deps, q, page);
  const after = page.after && { datetime: page.after.datetime, zone: page.after.zone };
  return findPrices(deps.db, { ...toQuery(q), limit: page.limit, ...(after ? { after } : {}) });
}

/** The repository query of a resolved price request without lineage parts over `range`. */
export function priceQueryOver(q: ResolvedPriceQuery, range: TimeRange): PriceQuery {
  return toQuery({ ...q, range });
}

/**
 * Every row of a resolved price request over `range` (a part of its range cut at bucket starts),
 * in (datetime, series, zone) order: the export's batches.
 */
export function findPricesOver(deps: ServiceDeps, q: ResolvedPriceQuery, range: TimeRange): Promise<PriceRecord[]> {
  const whole = { from: range.from.getTime(), to: range.to.getTime() };
  const seriesParts = q.seriesParts.flatMap((p) => {
    const part = intersect({ from: p.range.from.getTime(), to: p.range.to.getTime() }, whole);
    return part ? [{ ...p, range: { from: new Date(part.from), to: new Date(part.to) } }] : [];
  });
  const over = { ...q, range, seriesParts };
  if (q.seriesParts.length && !seriesParts.length && !q.zoneIds.length) return Promise.resolve([]);
  return seriesParts.length ? findSeriesPrices(deps, over) : findPrices(deps.db, toQuery(over));
}

/** Total rows of a resolved price request. */
export async function countPriceRows(deps: ServiceDeps, q: ResolvedPriceQuery): Promise<number> {
  if (!q.seriesParts.length) return countPrices(deps.db, toQuery(q));
  const counts = await Promise.all(seriesQueries(q).map(({ query }) => countPrices(deps.db, query)));
  return counts.reduce((a, b) => a + b, 0);
}
