import { EntsoeFormatError } from './errors.js';
import { iso, parseInstant, parseResolution, slotBoundaries } from './time.js';
import { childrenOf, parseFragment, rawChildrenOf, requireChild, requireText, textOf, type XmlNode } from './xml.js';

/** One value over a UTC interval [start, end) in epoch milliseconds (EUR/MWh or MW). */
export interface Sample {
  readonly start: number;
  readonly end: number;
  readonly value: number;
  readonly interpolated: boolean;
}

/** A Point as published: 1-based position and value. */
export interface RawPoint {
  readonly position: number;
  readonly value: number;
}

/** A Period as published: UTC interval, resolution text and points. */
export interface RawPeriod {
  readonly start: number;
  readonly end: number;
  readonly resolution: string;
  readonly points: readonly RawPoint[];
}

/** The attributes of a TimeSeries this layer uses, and its periods. */
export interface RawSeries {
  /** 0-based order of the TimeSeries in the document. */
  readonly index: number;
  readonly businessType: string | null;
  readonly inDomain: string;
  readonly outDomain: string;
  readonly contractType: string | null;
  /** `classificationSequence_AttributeInstanceComponent.position`, or null when absent. */
  readonly sequence: number | null;
  readonly curveType: 'A01' | 'A03';
  readonly currency: string | null;
  readonly priceUnit: string | null;
  readonly quantityUnit: string | null;
  readonly periods: readonly RawPeriod[];
}

/** The element holding a point's value: prices or quantities. */
export type ValueElement = 'price.amount' | 'quantity';

function readNumber(text: string, what: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new EntsoeFormatError(`${what}: not a number: "${text}"`);
  return n;
}

const POINT = /<Point\s*>([\s\S]*?)<\/Point\s*>/g;
const POINT_OPEN = /<Point[\s>/]/g;
const UNUSUAL = /&|<!|<\/?[A-Za-z_][\w.-]*:/;

function tagText(xml: string, name: string): string | undefined {
  const open = xml.indexOf(`<${name}>`);
  if (open < 0) return undefined;
  const from = open + name.length + 2;
  const close = xml.indexOf(`</${name}>`, from);
  return close < 0 ? undefined : xml.slice(from, close).trim();
}

/**
 * Fast reader of a raw period: plain ENTSO-E markup only (no entities, comments, CDATA or
 * namespace prefixes, every Point matched). Returns undefined when the text is anything else.
 */
function scanPeriod(raw: string, valueElement: ValueElement, where: string): RawPeriod | undefined {
  if (UNUSUAL.test(raw)) return undefined;
  const interval = tagText(raw, 'timeInterval');
  const startText = interval === undefined ? undefined : tagText(interval, 'start');
  const endText = interval === undefined ? undefined : tagText(interval, 'end');
  const resolution = tagText(raw, 'resolution');
  if (startText === undefined || endText === undefined || resolution === undefined) return undefined;
  const points: RawPoint[] = [];
  POINT.lastIndex = 0;
  for (let m = POINT.exec(raw); m; m = POINT.exec(raw)) {
    const position = tagText(m[1]!, 'position');
    const value = tagText(m[1]!, valueElement);
    if (position === undefined || value === undefined) return undefined;
    points.push({
      position: readNumber(position, `${where} position`),
      value: readNumber(value, `${where} ${valueElement}`),
    });
  }
  if ((raw.match(POINT_OPEN)?.length ?? 0) !== points.length) return undefined;
  return {
    start: parseInstant(startText, `${where} start`),
    end: parseInstant(endText, `${where} end`),
    resolution,
    points,
  };
}

/** Reads one Period (or Available_Period) from its raw inner XML. */
export function readPeriod(raw: string, valueElement: ValueElement, where: string): RawPeriod {
  const fast = scanPeriod(raw, valueElement, where);
  if (fast) return fast;
  const node = parseFragment(`<Period>${raw}</Period>`);
  const interval = requireChild(node, 'timeInterval', where);
  const start = parseInstant(requireText(interval, 'start', where), `${where} start`);
  const end = parseInstant(requireText(interval, 'end', where), `${where} end`);
  const resolution = requireText(node, 'resolution', where);
  const points = childrenOf(node, 'Point').map((p) => ({
    position: readNumber(requireText(p, 'position', where), `${where} position`),
    value: readNumber(requireText(p, valueElement, where), `${where} ${valueElement}`),
  }));
  return { start, end, resolution, points };
}

/** Reads every TimeSeries of a publication document. */
export function readSeries(root: XmlNode, valueElement: ValueElement): RawSeries[] {
  return childrenOf(root, 'TimeSeries').map((ts, index) => {
    const where = `TimeSeries #${index + 1}`;
    const curve = textOf(ts, 'curveType') || 'A01';
    if (curve !== 'A01' && curve !== 'A03') throw new EntsoeFormatError(`${where}: unsupported curveType ${curve}`);
    const seq = textOf(ts, 'classificationSequence_AttributeInstanceComponent.position');
    return {
      index,
      businessType: textOf(ts, 'businessType') ?? null,
      inDomain: requireText(ts, 'in_Domain.mRID', where),
      outDomain: requireText(ts, 'out_Domain.mRID', where),
      contractType: textOf(ts, 'contract_MarketAgreement.type') || null,
      sequence: seq ? readNumber(seq, `${where} classificationSequence`) : null,
      curveType: curve,
      currency: textOf(ts, 'currency_Unit.name') ?? null,
      priceUnit: textOf(ts, 'price_Measure_Unit.name') ?? null,
      quantityUnit: textOf(ts, 'quantity_Measure_Unit.name') ?? null,
      periods: rawChildrenOf(ts, 'Period').map((p, i) => readPeriod(p, valueElement, `${where} Period #${i + 1}`)),
    };
  });
}

/**
 * Expands a Period into one sample per position.
 * - curveType A01 (fixed size blocks): each given position is one sample; a missing position is a
 *   real gap and yields nothing.
 * - curveType A03 (variable sized blocks): a position holds until the next given position, and the
 *   last one until the period end, so an omitted position repeats the previous value (not a gap).
 *   Positions before the first given one have no value.
 * Positions are 1-based; the slot of position p starts at the (p-1)-th step from the period start.
 * @throws EntsoeFormatError for positions out of range, duplicated or not integers.
 */
export function expandPeriod(period: RawPeriod, curveType: 'A01' | 'A03'): Sample[] {
  const bounds = slotBoundaries(period.start, period.end, parseResolution(period.resolution));
  const slots = bounds.length - 1;
  let points = period.points;
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.position <= points[i - 1]!.position) {
      points = [...points].sort((a, b) => a.position - b.position);
      break;
    }
  }
  const out: Sample[] = [];
  for (let i = 0; i < points.length; i++) {
    const { position, value } = points[i]!;
    if (!Number.isInteger(position) || position < 1 || position > slots) {
      throw new EntsoeFormatError(`position ${position} outside 1..${slots} of period starting ${iso(period.start)}`);
    }
    const next = points[i + 1]?.position;
    if (next === position)
      throw new EntsoeFormatError(`position ${position} given twice in period starting ${iso(period.start)}`);
    const last = curveType === 'A03' ? Math.min(next === undefined ? slots : next - 1, slots) : position;
    for (let p = position; p <= last; p++) {
      out.push({ start: bounds[p - 1]!, end: bounds[p]!, value, interpolated: false });
    }
  }
  return out;
}

/** Expands every period of a series, in document order. */
export function expandSeries(series: RawSeries): Sample[] {
  const out: Sample[] = [];
  for (const period of series.periods) {
    for (const s of expandPeriod(period, series.curveType)) out.push(s);
  }
  return out;
}
