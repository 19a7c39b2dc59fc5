import { groupByDirection, hourlyOf } from './flows.js';
import { maxGapMs } from './gaps.js';
import { publication, readReply } from './reply.js';
import { readSeries, type RawSeries } from './series.js';
import type { EntsoeResult, GapOptions, NtcSeries } from './types.js';

/**
 * Parses an A61 reply (net transfer capacity) into hourly MW per direction (out_Domain -> in_Domain)
 * and contract type.
 *
 * Day-ahead NTC comes as PT60M curveType A03 with sparse positions (a value holds until the next
 * given position, the last one until the period end); week- and month-ahead NTC as P1D, where one
 * point may cover many days: every hour of those market days gets the value (a DST day gives 23 or
 * 25 hours). Sub-hourly values become hourly means. Gaps between periods are treated like flows.
 * @throws EntsoeFormatError, EntsoeUpstreamError, EntsoeAuthError.
 */
export function parseNetTransferCapacity(body: string | Uint8Array, options?: GapOptions): EntsoeResult<NtcSeries[]> {
  const doc = readReply(body, publication('A61'), options?.httpStatus);
  if ('kind' in doc) return doc;
  const gap = maxGapMs(options);
  const out: NtcSeries[] = [];
  for (const group of groupByDirection(readSeries(doc.root, 'quantity')).values()) {
    const byContract = new Map<string | null, RawSeries[]>();
    for (const s of group) {
      const list = byContract.get(s.contractType);
      if (list) list.push(s);
      else byContract.set(s.contractType, [s]);
    }
    for (const [contractType, series] of byContract) {
      const first = series[0]!;
      out.push({
        fromZoneEic: first.outDomain,
        toZoneEic: first.inDomain,
        contractType,
        points: hourlyOf(series, gap),
      });
    }
  }
  return { kind: 'data', data: out };
}
