import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EntsoeAuthError,
  EntsoeNotDayAheadError,
  EntsoeUpstreamError,
  parseDayAheadPrices,
  parseNetTransferCapacity,
  parsePhysicalFlows,
  parseScheduledExchanges,
  parseTransmissionOutages,
} from '../../src/ingest/entsoe/index.js';
import { buildYearOfQuarterHours, documentFixtures, FIXTURES, fixture } from './entsoe-helpers.js';

/**
 * Every real document among the fixtures, with the number of values its parser must produce
 * (prices: native points of all zones; flows, schedules, NTC: hourly points of all directions;
 * outages: records) or the error it must raise. The detailed hand-checked values are in the other
 * entsoe-*.test.ts files; this table guarantees that no real document is left out.
 */
const REAL: Record<string, (bytes: Uint8Array) => void> = {
  'A09_in-BE_out-NL_2024-03-24_26_PT15M_A05_and_A01.xml': (b) => expect(count(parseScheduledExchanges(b))).toBe(72),
  'A09_in-FI_out-EE_2024-03-24_26_PT60M.xml': (b) => expect(count(parseScheduledExchanges(b))).toBe(72),
  'A09_in-SE4_out-DK2_2023-12-21_24_PT60M.xml': (b) => expect(count(parseScheduledExchanges(b))).toBe(96),
  'A11_in-DK1_out-GB_2023-12-20_22_PT60M.xml': (b) => expect(count(parsePhysicalFlows(b))).toBe(47),
  'A11_in-GB_out-DK1_2023-12-20_22_PT60M_gaps_as_split_TimeSeries.xml': (b) =>
    expect(count(parsePhysicalFlows(b))).toBe(47),
  'A11_in-IT-SACODC_out-IT-SARD_2023-12-27_29_PT60M.xml': (b) => expect(count(parsePhysicalFlows(b))).toBe(47),
  'A44_BE_2024-10-08_PT60M.xml': (b) => expect(priceCount(b)).toBe(24),
  'A44_CH_2025-11-26_27_PT60M.xml': (b) => expect(priceCount(b)).toBe(48),
  'A44_DE-LU_2024-10-06_07_PT60M_seq1_plus_PT15M_seq2_A03.xml': (b) => expect(priceCount(b)).toBe(48),
  'A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml': (b) => expect(priceCount(b)).toBe(240),
  'A44_ES_intraday_auction_IDA_PT15M_2025-09-29_to_10-02.xml': (b) =>
    expect(() => parseDayAheadPrices(b)).toThrow(EntsoeNotDayAheadError),
  'A44_FR_2023-05-07_08_PT60M_A01_ns7-0.xml': (b) => expect(priceCount(b)).toBe(48),
  'A44_SE4_2023-08-07_08_PT60M_A01_negative_prices_ns7-0.xml': (b) => expect(priceCount(b)).toBe(48),
  'A61_in-DK1_out-DK2_week_ahead_NTC_P1D_single_point.xml': (b) => expect(count(parseNetTransferCapacity(b))).toBe(983),
  'A61_in-ES_out-FR_day_ahead_NTC_2026-03-19_20_PT60M_A03.xml': (b) =>
    expect(count(parseNetTransferCapacity(b))).toBe(41),
  'A61_in-FR_out-ES_month_ahead_NTC_P1D_A03.xml': (b) => expect(count(parseNetTransferCapacity(b))).toBe(1511),
  'A78_OUTAGES_A78_202011180000-202011190000.zip': (b) => expect(outageCount(b)).toBe(1),
  'ACK_bad_request_2023.xml': (b) => expect(() => parseDayAheadPrices(b)).toThrow(EntsoeUpstreamError),
  'ACK_no_matching_data_official_guide_example_2016.xml': (b) => expect(parseDayAheadPrices(b).kind).toBe('empty'),
  'HTTP401_invalid_token_body.html': (b) => expect(() => parseDayAheadPrices(b)).toThrow(EntsoeAuthError),
};

function count(result: ReturnType<typeof parsePhysicalFlows>): number {
  if (result.kind !== 'data') throw new Error('expected data');
  return result.data.reduce((n, s) => n + s.points.length, 0);
}
function priceCount(bytes: Uint8Array): number {
  const result = parseDayAheadPrices(bytes);
  if (result.kind !== 'data') throw new Error('expected data');
  return result.data.series.reduce((n, s) => n + s.points.length, 0);
}
function outageCount(bytes: Uint8Array): number {
  const result = parseTransmissionOutages(bytes);
  if (result.kind !== 'data') throw new Error('expected data');
  return result.data.length;
}

const real = documentFixtures().filter((f) => !f.startsWith('HANDMADE_'));

/** The fixtures that are not documents: catalogue tables, and the test that reads each. */
const TABLES: Record<string, string> = {
  'bidding_zone_neighbours_entsoe-py.csv': 'test/unit/catalogue-sources.test.ts',
  'eic_areas_entsoe-py.csv': 'test/unit/catalogue-sources.test.ts',
  'transmission_pairs_entsoeapi.tsv': 'test/unit/catalogue-sources.test.ts',
};

const SOURCE = '.source.txt';

describe('every real ENTSO-E document of the fixtures', () => {
  it('is listed here (a new fixture needs an expectation)', () => {
    expect(real.sort()).toEqual(Object.keys(REAL).sort());
  });

  it.each(real)('%s is byte-identical to its source (sha256 of .source.txt) and parses as expected', (name) => {
    const bytes = fixture(name);
    const source = readFileSync(`${FIXTURES}${name}.source.txt`, 'utf8');
    const sha = /sha256:\s*([0-9a-f]{64})/.exec(source)?.[1];
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha);
    REAL[name]!(bytes);
  });

  it('pairs every fixture file with a .source.txt, and every .source.txt with a fixture file', () => {
    const files = readdirSync(FIXTURES);
    expect(files.filter((f) => !f.endsWith(SOURCE) && !files.includes(f + SOURCE))).toEqual([]);
    expect(files.filter((f) => f.endsWith(SOURCE) && !files.includes(f.slice(0, -SOURCE.length)))).toEqual([]);
  });

  it('lists every fixture that is not a document; a verbatim copy matches the sha256 of its .source.txt', () => {
    const tables = readdirSync(FIXTURES).filter((f) => !f.endsWith(SOURCE) && !documentFixtures().includes(f));
    expect(tables.sort()).toEqual(Object.keys(TABLES).sort());
    for (const name of tables.filter((f) => /^copied: verbatim/m.test(readFileSync(FIXTURES + f + SOURCE, 'utf8')))) {
      const sha = /sha256:\s*([0-9a-f]{64})/.exec(readFileSync(FIXTURES + name + SOURCE, 'utf8'))?.[1];
      expect({ name, sha: createHash('sha256').update(fixture(name)).digest('hex') }).toEqual({ name, sha });
    }
  });

  it('every hand-made document says so in its .source.txt', () => {
    for (const name of documentFixtures().filter((f) => f.startsWith('HANDMADE_'))) {
      expect(existsSync(`${FIXTURES}${name}.source.txt`)).toBe(true);
      expect(readFileSync(`${FIXTURES}${name}.source.txt`, 'utf8')).toMatch(/^HAND-MADE fixture/);
    }
  });
});

describe('a year of quarter-hours of one zone', () => {
  it('parses 35,040 points (timing is printed, not asserted)', () => {
    const xml = buildYearOfQuarterHours();
    const started = performance.now();
    const result = parseDayAheadPrices(xml);
    const elapsed = performance.now() - started;
    if (result.kind !== 'data') throw new Error('expected data');
    const points = result.data.series[0]!.points;
    expect(points).toHaveLength(35_040);
    expect(points[35_039]).toMatchObject({ ts: new Date('2025-12-31T23:45Z'), priceEurMwh: 9.6 + 364 });
    console.info(
      `parsed ${points.length} PT15M points (${(xml.length / 1e6).toFixed(1)} MB of XML) in ${elapsed.toFixed(0)} ms`,
    );
  });
});
