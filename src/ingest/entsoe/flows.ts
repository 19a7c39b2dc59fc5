import { EntsoeFormatError } from './errors.js';
import { fillGaps, maxGapMs, mergeSamples } from './gaps.js';
import { toHourly } from './hourly.js';
import { publication, readReply } from './reply.js';
import { expandSeries, readSeries, type RawSeries, type Sample } from './series.js';
import type { DirectedHourlySeries, EntsoeResult, GapOptions, HourlyPoint, SchedulePoint } from './types.js';

/** Options of {@link parseScheduledExchanges}. */
export interface ScheduleParseOptions extends GapOptions {
  /**
   * Contract types to use, most preferred first. Default {@link DEFAULT_SCHEDULE_CONTRACTS}:
   * A05 (total of all timeframes, the final schedule) then A01 (day-ahead) where A05 is missing.
   */
  readonly contractPreference?: readonly string[];
}

/** Default contract preference of scheduled exchanges: A05 total, then A01 day-ahead. */
export const DEFAULT_SCHEDULE_CONTRACTS: readonly string[] = ['A05', 'A01'];

/** Contract label of a series that carries no contract type (kept after the preferred ones). */
export const UNSPECIFIED_CONTRACT = 'unspecified';

/** Groups series by direction: out_Domain (exporter) -> in_Domain (importer), in document order. */
export function groupByDirection(series: readonly RawSeries[]): Map<string, RawSeries[]> {
  const groups = new Map<string, RawSeries[]>();
  for (const s of series) {
    if (s.quantityUnit !== null && s.quantityUnit !== 'MAW') {
      throw new EntsoeFormatError(`TimeSeries #${s.index + 1}: quantities in ${s.quantityUnit}, expected MAW (MW)`);
    }
    const key = `${s.outDomain}>${s.inDomain}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return groups;
}

/** Expands, merges, gap-fills and averages a set of series into hourly MW. */
export function hourlyOf(series: readonly RawSeries[], gap: number): HourlyPoint[] {
  const samples: Sample[] = [];
  for (const s of series) for (const sample of expandSeries(s)) samples.push(sample);
  return toHourly(fillGaps(mergeSamples(samples), gap));
}

function direction(group: readonly RawSeries[]): { fromZoneEic: string; toZoneEic: string } {
  const first = group[0]!;
  return { fromZoneEic: first.outDomain, toZoneEic: first.inDomain };
}

/**
 * Parses an A11 reply (cross-border physical flows) into hourly MW per direction. Power flows from
 * out_Domain to in_Domain. PT15M/PT30M values become hourly means (hour start UTC). Split
 * TimeSeries are combined; the holes between them up to `maxGapMinutes` are interpolated and
 * flagged, longer ones stay empty.
 * @throws EntsoeFormatError, EntsoeUpstreamError, EntsoeAuthError.
 */
export function parsePhysicalFlows(
  body: string | Uint8Array,
  options?: GapOptions,
): EntsoeResult<DirectedHourlySeries[]> {
  const doc = readReply(body, publication('A11'), options?.httpStatus);
  if ('kind' in doc) return doc;
  const gap = maxGapMs(options);
  const groups = groupByDirection(readSeries(doc.root, 'quantity'));
  return {
    kind: 'data',
    data: [...groups.values()].map((group) => ({ ...direction(group), points: hourlyOf(group, gap) })),
  };
}

/**
 * Parses an A09 reply (scheduled commercial exchanges) into hourly MW per direction (out_Domain ->
 * in_Domain). Each contract type is turned into hourly means on its own (gaps filled within it);
 * then every hour takes the first contract type of `contractPreference` that has a published value
 * there, or failing that an interpolated one. Each point names its contract type.
 * @throws EntsoeFormatError, EntsoeUpstreamError, EntsoeAuthError.
 */
export function parseScheduledExchanges(
  body: string | Uint8Array,
  options?: ScheduleParseOptions,
): EntsoeResult<DirectedHourlySeries<SchedulePoint>[]> {
  const doc = readReply(body, publication('A09'), options?.httpStatus);
  if ('kind' in doc) return doc;
  const gap = maxGapMs(options);
  const preference = [...(options?.contractPreference ?? DEFAULT_SCHEDULE_CONTRACTS), UNSPECIFIED_CONTRACT];
  const groups = groupByDirection(readSeries(doc.root, 'quantity'));
  const data = [...groups.values()].map((group) => {
    const chosen = new Map<number, SchedulePoint>();
    for (const contractType of preference) {
      const ofType = group.filter((s) => (s.contractType ?? UNSPECIFIED_CONTRACT) === contractType);
      for (const p of hourlyOf(ofType, gap)) {
        const key = p.ts.getTime();
        const held = chosen.get(key);
        if (!held || (held.interpolated && !p.interpolated)) chosen.set(key, { ...p, contractType });
      }
    }
    const points = [...chosen.values()].sort((a, b) => a.ts.getTime() - b.ts.getTime());
    return { ...direction(group), points };
  });
  return { kind: 'data', data };
}
