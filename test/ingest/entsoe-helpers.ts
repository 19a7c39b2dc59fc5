import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EntsoeResult } from '../../src/ingest/entsoe/index.js';

/** Folder of the ENTSO-E fixtures (real ones copied verbatim, hand-made ones named HANDMADE_*). */
export const FIXTURES = fileURLToPath(new URL('../fixtures/entsoe/', import.meta.url));

/** Raw bytes of a fixture. */
export function fixture(name: string): Uint8Array {
  return readFileSync(FIXTURES + name);
}

/** Every reply document among the fixtures (XML, zip, HTML), real and hand-made. */
export function documentFixtures(): string[] {
  return readdirSync(FIXTURES).filter((f) => /\.(xml|zip|html)$/.test(f));
}

/** Unwraps a parser result that must hold data. */
export function dataOf<T>(result: EntsoeResult<T>): T {
  if (result.kind !== 'data') throw new Error(`expected data, got empty: ${result.reason}`);
  return result.data;
}

/** Finds the point starting at the given ISO instant. */
export function at<P extends { ts: Date }>(points: readonly P[], isoInstant: string): P | undefined {
  const t = Date.parse(isoInstant);
  return points.find((p) => p.ts.getTime() === t);
}

/** ISO text of a point's timestamp without milliseconds, e.g. 2024-10-07T22:00Z. */
export function isoOf(p: { ts: Date } | undefined): string | undefined {
  return p?.ts.toISOString().replace(':00.000Z', 'Z');
}

/**
 * Builds in memory an A44 document (namespace 7:3) of one zone with `days` daily Periods of 96
 * PT15M positions each, from 2025-01-01T00:00Z: 365 days give 35,040 points (one year of one zone).
 * Every position is written (curveType A03 without omissions), price = position / 10 + day.
 */
export function buildYearOfQuarterHours(days = 365): string {
  const parts: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>\n<Publication_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3">',
    '<mRID>generated</mRID><revisionNumber>1</revisionNumber><type>A44</type>',
    '<TimeSeries><mRID>1</mRID><businessType>A62</businessType>',
    '<in_Domain.mRID codingScheme="A01">10YNL----------L</in_Domain.mRID><out_Domain.mRID codingScheme="A01">10YNL----------L</out_Domain.mRID>',
    '<contract_MarketAgreement.type>A01</contract_MarketAgreement.type><currency_Unit.name>EUR</currency_Unit.name>',
    '<price_Measure_Unit.name>MWH</price_Measure_Unit.name><curveType>A03</curveType>',
  ];
  const t0 = Date.UTC(2025, 0, 1);
  const iso = (ms: number): string => new Date(ms).toISOString().replace(':00.000Z', 'Z');
  for (let d = 0; d < days; d++) {
    const start = t0 + d * 86_400_000;
    parts.push(
      `<Period><timeInterval><start>${iso(start)}</start><end>${iso(start + 86_400_000)}</end></timeInterval><resolution>PT15M</resolution>`,
    );
    for (let p = 1; p <= 96; p++)
      parts.push(`<Point><position>${p}</position><price.amount>${(p / 10 + d).toFixed(2)}</price.amount></Point>`);
    parts.push('</Period>');
  }
  parts.push('</TimeSeries></Publication_MarketDocument>');
  return parts.join('\n');
}
