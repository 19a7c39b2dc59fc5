/**
 * The one check every service runs on the zones and borders a request names explicitly: the
 * resolved range must lie inside the period of each (a 422 naming the period and the zones or
 * borders before or after it). Requests without explicit zones or borders are not checked: they
 * answer what exists.
 */
import { borderRangeProblem, zoneRangeProblem } from '../domain/lineage.js';
import type { TimeRange } from '../domain/time.js';
import { type EntryIssue, InputError } from '../errors.js';
import type { ServiceDeps } from './context.js';

const periodOf = (range: TimeRange) => ({ from: range.from.getTime(), to: range.to.getTime() });

function fail(param: string, entries: EntryIssue[]): void {
  const first = entries[0];
  if (!first) return;
  throw new InputError([
    {
      param,
      msg: entries.map((e) => e.msg).join('; '),
      type: 'value_error',
      input: entries.map((e) => e.input),
      entries,
    },
  ]);
}

/**
 * Checks zones (codes, in the order given) against a range.
 * @param opts.lineage the zones answer with their lineage (their chained predecessors).
 * @param opts.lineageOffered the endpoint takes `lineage` (the message then suggests it).
 * @throws InputError on `zones` naming each zone whose period (or series) does not hold the range.
 */
export function checkZonePeriods(
  deps: ServiceDeps,
  codes: readonly string[],
  range: TimeRange,
  opts: { lineage?: boolean; lineageOffered?: boolean } = {},
): void {
  const r = periodOf(range);
  const entries = codes.flatMap((code, index) => {
    const zone = deps.catalogue.zone(code);
    const msg = zone && zoneRangeProblem(code, zone, r, opts);
    return msg ? [{ index, msg, input: code }] : [];
  });
  fail('zones', entries);
}

/**
 * Checks borders (as written) against a range; times in the first written zone's time zone.
 * @throws InputError on `borders` naming each border whose period does not hold the range.
 */
export function checkBorderPeriods(
  deps: ServiceDeps,
  borders: readonly { readonly from: string; readonly to: string }[],
  range: TimeRange,
): void {
  const r = periodOf(range);
  const exists = (a: string, b: string) => deps.catalogue.borderBetween(a, b) !== undefined;
  const entries = borders.flatMap((b, index) => {
    const zone = deps.catalogue.zone(b.from);
    const msg = zone && borderRangeProblem(b.from, b.to, zone, r, exists);
    return msg ? [{ index, msg, input: `${b.from}->${b.to}` }] : [];
  });
  fail('borders', entries);
}
