/** Helpers of the ingestion job tests: client on the fake upstream, job runs, document builders, reads. */
import type { Database } from '../../src/db/client.js';
import { EntsoeClient, type EntsoeClientOptions, type RetryEvent } from '../../src/ingest/client.js';
import { type IngestOptions, type IngestSummary, runIngest } from '../../src/ingest/job.js';
import { type FakeUpstream, TOKEN } from './fake-upstream.js';

/** EICs of the zones the tests use. */
export const EIC = {
  ES: '10YES-REE------0',
  FR: '10YFR-RTE------C',
  PT: '10YPT-REN------W',
  BE: '10YBE----------2',
  NL: '10YNL----------L',
  DE_LU: '10Y1001A1001A82H',
  DK_1: '10YDK-1--------W',
  DK_2: '10YDK-2--------M',
  SE_4: '10Y1001A1001A47J',
  GB: '10YGB----------A',
  EE: '10Y1001A1001A39I',
  FI: '10YFI-1--------U',
} as const;

/** A client on the fake with a fake clock: waits resolve at once and are recorded. */
export function fakeClient(fake: FakeUpstream, overrides: Partial<EntsoeClientOptions> = {}) {
  const waits: number[] = [];
  const retries: RetryEvent[] = [];
  const client = new EntsoeClient({
    token: TOKEN,
    baseUrl: fake.url,
    timeoutMs: 2_000,
    maxAttempts: 4,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      waits.push(ms);
    },
    onRetry: (e) => retries.push(e),
    ...overrides,
  });
  return { client, waits, retries };
}

/** Runs the job over [from, to) (ISO dates, UTC). */
export function ingest(
  db: Database,
  client: EntsoeClient,
  from: string,
  to: string,
  rest: Partial<IngestOptions> = {},
): Promise<IngestSummary> {
  return runIngest({ db, client, from: new Date(from), to: new Date(to), what: ['prices'], ...rest });
}

/** Rows of a query (raw SQL on the test database). */
export function rows<T = Record<string, unknown>>(db: Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return db.rawQuery<T>(sql, params);
}

/** ISO text of a stored instant. */
export const iso = (d: unknown): string => new Date(d as string).toISOString();

function publication(type: string, series: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Publication_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3">
<mRID>test</mRID><revisionNumber>1</revisionNumber><type>${type}</type>
${series}
</Publication_MarketDocument>`;
}

function period(startIso: string, values: readonly number[], element: 'price.amount' | 'quantity'): string {
  const start = Date.parse(startIso);
  const end = new Date(start + values.length * 3_600_000).toISOString().replace(':00.000Z', 'Z');
  const points = values
    .map((v, i) => `<Point><position>${i + 1}</position><${element}>${v}</${element}></Point>`)
    .join('');
  return `<Period><timeInterval><start>${startIso}</start><end>${end}</end></timeInterval><resolution>PT60M</resolution>${points}</Period>`;
}

/** An A44 document of one zone: hourly prices (EUR/MWh) from `startIso` (e.g. `2023-12-20T23:00Z`). */
export function a44(eic: string, startIso: string, prices: readonly number[]): string {
  return publication(
    'A44',
    `<TimeSeries><mRID>1</mRID><businessType>A62</businessType><in_Domain.mRID codingScheme="A01">${eic}</in_Domain.mRID>
<out_Domain.mRID codingScheme="A01">${eic}</out_Domain.mRID><contract_MarketAgreement.type>A01</contract_MarketAgreement.type>
<currency_Unit.name>EUR</currency_Unit.name><price_Measure_Unit.name>MWH</price_Measure_Unit.name><curveType>A01</curveType>
${period(startIso, prices, 'price.amount')}</TimeSeries>`,
  );
}

/** An A11 document of one direction (out -> in): hourly MW from `startIso`. */
export function a11(outEic: string, inEic: string, startIso: string, mw: readonly number[]): string {
  return publication(
    'A11',
    `<TimeSeries><mRID>1</mRID><businessType>A66</businessType><in_Domain.mRID codingScheme="A01">${inEic}</in_Domain.mRID>
<out_Domain.mRID codingScheme="A01">${outEic}</out_Domain.mRID><quantity_Measure_Unit.name>MAW</quantity_Measure_Unit.name>
<curveType>A01</curveType>${period(startIso, mw, 'quantity')}</TimeSeries>`,
  );
}

/** The key the fake serves a document under: documentType, in_Domain, out_Domain. */
export const key = (doc: string, inEic: string, outEic: string): string => `${doc}:${inEic}:${outEic}`;

/** An A44 document with one TimeSeries per day (24 hourly prices each, price = day index + 1). */
export function a44Days(eic: string, firstDay: string, days: number): string {
  const series = Array.from({ length: days }, (_, d) => {
    const start = new Date(Date.parse(firstDay) + d * 86_400_000).toISOString().replace(':00.000Z', 'Z');
    return a44(eic, start, Array(24).fill(d + 1)).replace(/^[\s\S]*?(<TimeSeries>[\s\S]*<\/TimeSeries>)[\s\S]*$/, '$1');
  });
  return a44(eic, firstDay, [0]).replace(/<TimeSeries>[\s\S]*<\/TimeSeries>/, series.join('\n'));
}
