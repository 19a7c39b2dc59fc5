import { applyResolution, type RequestedResolution, type Resolution } from '../domain/resolution.js';
import { resolveRange, type TimeRange } from '../domain/time.js';
import { IssueCollector } from '../errors.js';
import { countPrices, findPriceSources, findPrices, type PriceQuery } from '../repositories/prices/rows.js';
import type { PriceRecord } from '../domain/records.js';
import type { ServiceDeps } from './context.js';
import { type Meta, provenanceOf, sourceLabels } from './meta.js';
import { type AppliedTimeZone, applyTimeZone, rowZoneOf, type RowsWithZone } from './time-zone.js';

/** Price request as both surfaces receive it (REST parameter semantics). */
export interface PricesInput {
  readonly zones?: readonly string[];
  readonly datetimeFrom?: string;
  readonly datetimeTo?: string;
  readonly resolution?: RequestedResolution;
  /** `tz`: an IANA zone, `UTC` or `local`; omitted: UTC. */
  readonly tz?: string;
}

/** A resolved price request: zones, UTC range and applied resolution. */
export interface ResolvedPriceQuery {
  readonly zoneIds: number[];
  /** `zoneIds` are every zone of the catalogue. */
  readonly allZones: boolean;
  readonly range: TimeRange;
  readonly resolution: Resolution;
  readonly timeZone: AppliedTimeZone;
}

/** Validates and resolves a price request. @throws InputError (422) on any invalid input. */
export function resolvePriceQuery(deps: ServiceDeps, input: PricesInput): ResolvedPriceQuery {
  const check = new IssueCollector();
  const codes =
    check.attempt(() =>
      input.zones?.length ? deps.catalogue.resolveZones(input.zones) : deps.catalogue.zones.map((z) => z.code),
    ) ?? [];
  const zoneIds = codes.flatMap((c) => deps.catalogue.zone(c)?.id ?? []);
  const timeZone = check.attempt(() => applyTimeZone(deps, input.tz, codes));
  const range = check.attempt(() => resolveRange(input.datetimeFrom, input.datetimeTo, deps.now(), timeZone?.naive));
  const resolution = range && check.attempt(() => applyResolution(input.resolution ?? 'auto', range));
  check.done();
  const allZones = zoneIds.length === deps.catalogue.zones.length;
  return { zoneIds, allZones, range: range!, resolution: resolution!, timeZone: timeZone! };
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

/** meta of a price response: measured upstream values (demo data: derived), sources from the stored data. */
export async function priceMeta(deps: ServiceDeps, q: ResolvedPriceQuery): Promise<Meta> {
  const sources = await findPriceSources(deps.db, toQuery(q), deps.memo);
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
  const [rows, meta] = await Promise.all([findPrices(deps.db, toQuery(q)), priceMeta(deps, q)]);
  const zoneOf = rowZoneOf(q.timeZone);
  return { meta, rows, rowTimeZone: zoneOf && ((r) => zoneOf(r.zone)) };
}

/** One keyset page of prices: rows after `after` in (datetime, zone) order, at most `limit`. */
export async function getPriceKeysetPage(
  deps: ServiceDeps,
  q: ResolvedPriceQuery,
  page: { after?: PriceQuery['after']; limit: number },
): Promise<PriceRecord[]> {
  return findPrices(deps.db, { ...toQuery(q), ...page });
}

/** Total rows of a resolved price request. */
export async function countPriceRows(deps: ServiceDeps, q: ResolvedPriceQuery): Promise<number> {
  return countPrices(deps.db, toQuery(q));
}
