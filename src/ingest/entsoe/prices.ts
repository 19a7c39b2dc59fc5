import { EntsoeFormatError, EntsoeNotDayAheadError } from './errors.js';
import { fillGaps, maxGapMs, mergeSamples } from './gaps.js';
import { publication, readReply } from './reply.js';
import { expandSeries, readSeries, type RawSeries, type Sample } from './series.js';
import { MINUTE_MS } from './time.js';
import type { DayAheadPrices, EntsoeResult, GapOptions, IgnoredPriceSeries, PriceSeries } from './types.js';

/** Options of {@link parseDayAheadPrices}. */
export interface PriceParseOptions extends GapOptions {
  /**
   * `classificationSequence_AttributeInstanceComponent.position` to keep where a zone publishes
   * several day-ahead series. Default {@link SDAC_SEQUENCE}. Series without the element are always kept.
   */
  readonly sequence?: number;
}

/**
 * Sequence of the Single Day-Ahead Coupling prices. ENTSO-E publishes for DE-LU and AT the SDAC
 * prices (gate closure 12:00 CE(S)T) as sequence 1 and the separate EXAA 10:15 auction as
 * sequence 2; entsoe-py also keeps sequence 1. Sequence 2 is not taken as a fallback.
 */
export const SDAC_SEQUENCE = 1;

/** contract_MarketAgreement.type of day-ahead series. */
const DAY_AHEAD_CONTRACT = 'A01';

function isDayAhead(s: RawSeries): boolean {
  // Namespace 7:0 documents carry no contract type: A44 then only held day-ahead prices.
  return s.contractType === null || s.contractType === DAY_AHEAD_CONTRACT;
}

function checkUnits(s: RawSeries): void {
  if ((s.currency !== null && s.currency !== 'EUR') || (s.priceUnit !== null && s.priceUnit !== 'MWH')) {
    throw new EntsoeFormatError(`TimeSeries #${s.index + 1}: prices in ${s.currency}/${s.priceUnit}, expected EUR/MWH`);
  }
}

function ignoredEntry(s: RawSeries, reason: IgnoredPriceSeries['reason']): IgnoredPriceSeries {
  const empty = s.periods.length === 0;
  return {
    zoneEic: s.inDomain,
    contractType: s.contractType,
    sequence: s.sequence,
    start: empty ? null : new Date(Math.min(...s.periods.map((p) => p.start))),
    end: empty ? null : new Date(Math.max(...s.periods.map((p) => p.end))),
    reason,
  };
}

/**
 * Parses an A44 reply (Publication_MarketDocument, namespace 7:0 or 7:3) into day-ahead prices in
 * EUR/MWh, one point per native period (PT15M, PT30M or PT60M), UTC timestamps.
 *
 * - Only day-ahead series are kept: `contract_MarketAgreement.type` A01, or no contract type (7:0).
 *   A document with series but none day-ahead (e.g. A07 intraday auctions) is rejected.
 * - Where a zone has several series (DE-LU, AT), only `options.sequence` (default 1, SDAC) is kept;
 *   the others are listed in `ignored`.
 * - curveType A03 omissions repeat the previous value; real gaps (missing A01 positions, missing
 *   periods) up to `maxGapMinutes` are interpolated at native resolution and flagged.
 * @throws EntsoeNotDayAheadError, EntsoeFormatError, EntsoeUpstreamError, EntsoeAuthError.
 */
export function parseDayAheadPrices(
  body: string | Uint8Array,
  options?: PriceParseOptions,
): EntsoeResult<DayAheadPrices> {
  const doc = readReply(body, publication('A44'), options?.httpStatus);
  if ('kind' in doc) return doc;
  const all = readSeries(doc.root, 'price.amount');
  const dayAhead = all.filter(isDayAhead);
  if (all.length > 0 && dayAhead.length === 0) {
    throw new EntsoeNotDayAheadError([...new Set(all.map((s) => s.contractType ?? '(none)'))]);
  }
  const wanted = options?.sequence ?? SDAC_SEQUENCE;
  const ignored = all.filter((s) => !isDayAhead(s)).map((s) => ignoredEntry(s, 'not-day-ahead'));
  const byZone = new Map<string, Sample[]>();
  for (const s of dayAhead) {
    if (s.sequence !== null && s.sequence !== wanted) {
      ignored.push(ignoredEntry(s, 'other-sequence'));
      continue;
    }
    checkUnits(s);
    let samples = byZone.get(s.inDomain);
    if (!samples) byZone.set(s.inDomain, (samples = []));
    for (const sample of expandSeries(s)) samples.push(sample);
  }
  const gap = maxGapMs(options);
  const series: PriceSeries[] = [...byZone].map(([zoneEic, samples]) => ({
    zoneEic,
    points: fillGaps(mergeSamples(samples), gap).map((s) => ({
      ts: new Date(s.start),
      periodMinutes: (s.end - s.start) / MINUTE_MS,
      priceEurMwh: s.value,
      interpolated: s.interpolated,
    })),
  }));
  return { kind: 'data', data: { series, ignored } };
}
