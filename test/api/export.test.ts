import { parse } from 'csv-parse/sync';
import { tableFromIPC } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect } from 'vitest';
import { collectGarbage } from '../support/gc.js';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { loadPrices, type PricePointRow } from '../../src/repositories/ingest/load.js';
import { blockApp, type TestApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const HOUR = 3_600_000;

type Row = Record<string, string>;

/** CSV text read by csv-parse: one object per record, keyed by the header row. */
const readCsv = (text: string): Row[] => parse(text, { columns: true, skip_empty_lines: true }) as Row[];

/** Rows without the export's covered_hours column. */
const withoutCovered = (rows: readonly Row[]) => rows.map(({ covered_hours: _c, ...rest }) => rest);

/** Arrow and Parquet rows of an export as CSV text fields (timestamps as the CSV's UTC seconds). */
const typedAsCsv = (r: Record<string, unknown>): Row => ({
  datetime: new Date(Number(r.datetime instanceof Date ? r.datetime.getTime() : r.datetime))
    .toISOString()
    .replace('.000Z', 'Z'),
  bidding_zone: String(r.bidding_zone),
  price_mwh: String(r.price_mwh),
  interpolated: String(r.interpolated),
  year: String(r.year),
});

/** A typed row's `columns` as CSV text: instants as UTC seconds, null empty, the rest as JavaScript writes it. */
const cellsAsCsv = (r: Record<string, unknown>, columns: readonly string[]): Row =>
  Object.fromEntries(
    columns.map((c) => {
      const v = r[c];
      if (v === null || v === undefined) return [c, ''];
      if (c === 'datetime')
        return [c, new Date(v instanceof Date ? v.getTime() : Number(v)).toISOString().replace('.000Z', 'Z')];
      return [c, String(v)];
    }),
  );

/** The rows of an export's Arrow and Parquet answers, read by apache-arrow and hyparquet. */
async function typedRows(
  t: TestApp,
  q: string,
): Promise<{ arrow: Record<string, unknown>[]; parquet: Record<string, unknown>[] }> {
  const arrow = await t.get(`/api/v1/export/prices?${q}&format=arrow`);
  expect(arrow.status).toBe(200);
  const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()));
  const parquet = await t.get(`/api/v1/export/prices?${q}&format=parquet`);
  expect(parquet.status).toBe(200);
  const file = await parquet.arrayBuffer();
  return {
    arrow: table.toArray().map((r: any) => r.toJSON()),
    parquet: (await parquetReadObjects({ file })) as Record<string, unknown>[],
  };
}

/** Flow export ranges per resolution, with partial first and last buckets: [resolution, from, to]. */
const FLOW_RANGES: readonly [string, string, string][] = [
  ['native', '2025-10-20T00:00Z', '2025-10-22T00:00Z'],
  ['1H', '2025-10-20T06:30Z', '2025-10-24T12:30Z'],
  ['1D', '2025-10-03T06:30Z', '2025-10-29T12:00Z'],
  ['1W', '2025-08-13T06:30Z', '2025-10-29T00:00Z'],
];

/** Hours of the UTC bucket starting at `start` (1H, 1D or 1W long) inside [from, to). */
function coveredHours(resolution: string, start: string, from: string, to: string): number {
  const hours = { '1H': 1, '1D': 24, '1W': 168 }[resolution] as number;
  const begin = Date.parse(start);
  const end = Math.min(begin + hours * 3_600_000, Date.parse(to));
  return (end - Math.max(begin, Date.parse(from))) / 3_600_000;
}

describe.each(TEST_BACKENDS)('exports on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { timeout: 180_000 });
  const text = async (path: string, init?: RequestInit) => {
    const res = await t.get(path, init);
    return { res, body: await res.text() };
  };
  /** The CSV rows of a twin's answers over consecutive ranges, concatenated. */
  const twinCsv = async (path: string, query: string, bounds: readonly string[]) => {
    const rows: Row[] = [];
    for (let i = 1; i < bounds.length; i++) {
      const { res, body } = await text(
        `${path}?${query}&datetime_from=${bounds[i - 1]}&datetime_to=${bounds[i]}&format=csv`,
      );
      expect(res.status, body).toBe(200);
      rows.push(...readCsv(body));
    }
    return rows;
  };

  it('writes five days of native prices of every zone as the /api/v1 answers of 2-day pieces, row for row', async () => {
    const { res, body } = await text(
      '/api/v1/export/prices?resolution=native&datetime_from=2025-10-24T00:00Z&datetime_to=2025-10-29T00:00Z',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="prices_2025-10-24_2025-10-29.csv"');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const twin = await twinCsv('/api/v1/prices', 'resolution=native', [
      '2025-10-24T00:00Z',
      '2025-10-26T00:00Z',
      '2025-10-28T00:00Z',
      '2025-10-29T00:00Z',
    ]);
    const rows = readCsv(body);
    expect(Object.keys(rows[0]!)).toEqual(['datetime', 'bidding_zone', 'price_mwh', 'interpolated', 'year']);
    expect(twin.length).toBeGreaterThan(10_000);
    expect(rows).toEqual(twin);
  });

  it('writes native prices byte for byte as the /api/v1 CSV answers, CRLF lines after one header', async () => {
    const bounds = ['2025-10-24T00:00Z', '2025-10-26T00:00Z', '2025-10-27T00:00Z'];
    const { body } = await text(
      `/api/v1/export/prices?resolution=native&datetime_from=${bounds[0]}&datetime_to=${bounds[2]}`,
    );
    let twin = '';
    for (let i = 1; i < bounds.length; i++) {
      const piece = (
        await text(
          `/api/v1/prices?resolution=native&datetime_from=${bounds[i - 1]}&datetime_to=${bounds[i]}&format=csv`,
        )
      ).body;
      twin += i === 1 ? piece : piece.slice(piece.indexOf('\r\n') + 2);
    }
    expect(body.startsWith('datetime,bidding_zone,price_mwh,interpolated,year\r\n')).toBe(true);
    expect(body.split('\r\n').length).toBeGreaterThan(8_000);
    expect(body).toBe(twin);
  });

  it('writes 20 days of Berlin hours (past the 14-day cap of /api/v1) as two /api/v1 answers, across the DST switch', async () => {
    const q = 'zone=DE_LU&zone=FR&resolution=1h&tz=Europe/Berlin';
    const capped = await t.get(`/api/v1/prices?${q}&datetime_from=2025-10-15&datetime_to=2025-11-04`);
    expect(capped.status).toBe(422);
    const { res, body } = await text(`/api/v1/export/prices?${q}&datetime_from=2025-10-15&datetime_to=2025-11-04`);
    expect(res.status).toBe(200);
    const rows = readCsv(body);
    const twin = await twinCsv('/api/v1/prices', q, ['2025-10-15', '2025-10-25', '2025-11-04']);
    expect(withoutCovered(rows)).toEqual(twin);
    expect(rows).toHaveLength(2 * (20 * 24 + 1));
    expect(new Set(rows.map((r) => r.covered_hours))).toEqual(new Set(['1']));
    expect(rows.filter((r) => r.datetime?.startsWith('2025-10-26T02:00:00')).map((r) => r.datetime)).toEqual([
      '2025-10-26T02:00:00+02:00',
      '2025-10-26T02:00:00+02:00',
      '2025-10-26T02:00:00+01:00',
      '2025-10-26T02:00:00+01:00',
    ]);
  });

  it('gives a Berlin day of the DST week its 25 hours and a partial first day fewer', async () => {
    const q = 'zone=DE_LU&resolution=1D&tz=Europe/Berlin';
    const { body } = await text(`/api/v1/export/prices?${q}&datetime_from=2025-10-23T12:00&datetime_to=2025-10-30`);
    const rows = readCsv(body);
    const twin = await twinCsv('/api/v1/prices', q, ['2025-10-23T12:00', '2025-10-30']);
    expect(withoutCovered(rows)).toEqual(twin);
    expect(rows.map((r) => [r.datetime, r.covered_hours])).toEqual([
      ['2025-10-23T00:00:00+02:00', '12'],
      ['2025-10-24T00:00:00+02:00', '24'],
      ['2025-10-25T00:00:00+02:00', '24'],
      ['2025-10-26T00:00:00+02:00', '25'],
      ['2025-10-27T00:00:00+01:00', '24'],
      ['2025-10-28T00:00:00+01:00', '24'],
      ['2025-10-29T00:00:00+01:00', '24'],
    ]);
  });

  it('writes flows as NDJSON, the rows of every /api/v1/flows page in order', async () => {
    const range = 'datetime_from=2025-10-20&datetime_to=2025-10-23&resolution=1H&zone=DE_LU';
    const { res, body } = await text(`/api/v1/export/flows?${range}&format=ndjson`);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const rows = body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const twin: unknown[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = (await (await t.get(`/api/v1/flows?${range}&limit=500&offset=${offset}`)).json()) as any;
      twin.push(...page.data);
      if (page.meta.pagination.next_offset === null) break;
    }
    expect(twin.length).toBeGreaterThan(500);
    expect(rows.map(({ covered_hours: _c, ...r }) => r)).toEqual(twin);
  });

  it.each(FLOW_RANGES)(
    'writes %s flows as CSV byte for byte as the /api/v1/flows CSV pages, with the covered hours counted by hand',
    async (resolution, from, to) => {
      const range = `resolution=${resolution}&datetime_from=${from}&datetime_to=${to}`;
      const { res, body } = await text(`/api/v1/export/flows?${range}`);
      expect(res.status, body).toBe(200);
      let header = '';
      const lines: string[] = [];
      for (let offset = 0; ; offset += 1_000) {
        const page = await text(`/api/v1/flows?${range}&limit=1000&offset=${offset}&format=csv`);
        expect(page.res.status, page.body).toBe(200);
        const [head, ...rest] = page.body.split('\r\n').slice(0, -1);
        header = head!;
        if (!rest.length) break;
        lines.push(...rest);
      }
      expect(lines.length).toBeGreaterThan(100);
      let twin: string;
      if (resolution === 'native') twin = [header, ...lines].map((l) => `${l}\r\n`).join('');
      else {
        const covered = lines.map((l) => coveredHours(resolution, l.slice(0, l.indexOf(',')), from, to));
        expect(new Set(covered).size).toBeGreaterThan(1);
        twin = [`${header},covered_hours`, ...lines.map((l, i) => `${l},${covered[i]}`)]
          .map((l) => `${l}\r\n`)
          .join('');
      }
      expect(body).toBe(twin);
    },
  );

  it.each(FLOW_RANGES)(
    'writes %s flows as NDJSON byte for byte as the /api/v1/flows JSON rows, with the covered hours counted by hand',
    async (resolution, from, to) => {
      const range = `resolution=${resolution}&datetime_from=${from}&datetime_to=${to}`;
      const { res, body } = await text(`/api/v1/export/flows?${range}&format=ndjson`);
      expect(res.status, body).toBe(200);
      const twin: string[] = [];
      for (let offset = 0; ; offset += 1_000) {
        const page = (await (await t.get(`/api/v1/flows?${range}&limit=1000&offset=${offset}`)).json()) as any;
        for (const row of page.data as { datetime: string }[])
          twin.push(
            JSON.stringify(
              resolution === 'native'
                ? row
                : { ...row, covered_hours: coveredHours(resolution, row.datetime, from, to) },
            ),
          );
        if (page.meta.pagination.next_offset === null) break;
      }
      expect(twin.length).toBeGreaterThan(100);
      expect(body).toBe(twin.map((l) => `${l}\n`).join(''));
    },
  );

  it('writes hourly ci-share over 20 days and the local flow-type summary as their /api/v1 twins', async () => {
    const ci = await text(
      '/api/v1/export/ci-share?resolution=1H&zone=FR&datetime_from=2025-10-10&datetime_to=2025-10-30',
    );
    const ciTwin = await twinCsv('/api/v1/ci-share', 'resolution=1H&zone=FR', [
      '2025-10-10',
      '2025-10-20',
      '2025-10-30',
    ]);
    expect(withoutCovered(readCsv(ci.body))).toEqual(ciTwin);
    const q = 'resolution=1D&tz=local&border=DE_LU-%3EFR';
    const summary = await text(`/api/v1/export/flow-type-summary?${q}&datetime_from=2025-10-01&datetime_to=2025-11-01`);
    const twin = await twinCsv('/api/v1/flow-type-summary', q, ['2025-10-01', '2025-11-01']);
    const rows = readCsv(summary.body);
    expect(withoutCovered(rows)).toEqual(twin);
    expect(rows.find((r) => r.day === '2025-10-26')?.covered_hours).toBe('25');
  });

  it('writes native prices of every zone over the October DST switch as Arrow and Parquet, value for value the CSV rows', async () => {
    const q = 'resolution=native&datetime_from=2025-10-25T21:15Z&datetime_to=2025-10-26T03:00Z';
    const csv = readCsv((await text(`/api/v1/export/prices?${q}`)).body);
    expect(csv.length).toBeGreaterThan(500);
    const { arrow, parquet } = await typedRows(t, q);
    expect(arrow.map(typedAsCsv)).toEqual(csv);
    expect(parquet.map(typedAsCsv)).toEqual(csv);
    expect(new Set([...arrow, ...parquet].map((r) => r.time_zone))).toEqual(new Set(['UTC']));
  });

  it.each(['native', '1H', '1D'])(
    'writes %s flows as Arrow and Parquet, value for value the CSV rows',
    async (resolution) => {
      const q = `resolution=${resolution}&datetime_from=2025-10-20T00:00Z&datetime_to=2025-10-23T06:00Z`;
      const csv = readCsv((await text(`/api/v1/export/flows?${q}`)).body);
      expect(csv.length).toBeGreaterThan(100);
      const arrow = await t.get(`/api/v1/export/flows?${q}&format=arrow`);
      const parquet = await t.get(`/api/v1/export/flows?${q}&format=parquet`);
      const typed = {
        arrow: tableFromIPC(new Uint8Array(await arrow.arrayBuffer()))
          .toArray()
          .map((r: any) => r.toJSON() as Record<string, unknown>),
        parquet: (await parquetReadObjects({ file: await parquet.arrayBuffer() })) as Record<string, unknown>[],
      };
      for (const rows of Object.values(typed)) {
        expect(new Set(rows.map((r) => r.time_zone))).toEqual(new Set(['UTC']));
        expect(rows.map((r) => cellsAsCsv(r, Object.keys(csv[0]!)))).toEqual(csv);
      }
    },
  );

  it('writes an empty range as Arrow and Parquet of no rows with the columns', async () => {
    const q = 'resolution=native&zone=FR&datetime_from=2030-01-01&datetime_to=2030-01-02';
    const arrow = await t.get(`/api/v1/export/prices?${q}&format=arrow`);
    const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()));
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => f.name)).toEqual([
      'datetime',
      'bidding_zone',
      'price_mwh',
      'interpolated',
      'year',
      'time_zone',
    ]);
  });

  it('writes Arrow that apache-arrow reads back as the CSV rows', async () => {
    const q = 'zone=DE_LU&resolution=1H&datetime_from=2025-10-01&datetime_to=2025-10-03';
    const arrow = await t.get(`/api/v1/export/prices?${q}&format=arrow`);
    expect(arrow.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
    const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()));
    const csv = readCsv((await text(`/api/v1/export/prices?${q}`)).body);
    expect(table.numRows).toBe(48);
    const read = table.toArray().map((r: any) => ({
      datetime: new Date(Number(r.datetime)).toISOString().replace('.000Z', 'Z'),
      bidding_zone: r.bidding_zone,
      price_mwh: String(r.price_mwh),
      interpolated: String(r.interpolated),
      year: String(r.year),
      covered_hours: String(r.covered_hours),
    }));
    expect(read).toEqual(csv);
    expect(new Set(table.toArray().map((r: any) => r.time_zone))).toEqual(new Set(['UTC']));
  });

  it('writes Parquet that hyparquet (another author than the writer) reads back as the CSV rows', async () => {
    const q = 'zone=DE_LU&zone=FR&resolution=1H&tz=Europe/Berlin&datetime_from=2025-10-25&datetime_to=2025-10-28';
    const res = await t.get(`/api/v1/export/prices?${q}&format=parquet`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(res.headers.get('content-disposition')).toContain('.parquet"');
    const file = await res.arrayBuffer();
    const metadata = parquetMetadata(file);
    expect(metadata.row_groups[0]!.columns[0]!.meta_data!.codec).toBe('SNAPPY');
    const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    const csv = readCsv((await text(`/api/v1/export/prices?${q}`)).body);
    expect(rows).toHaveLength(csv.length);
    expect(rows.length).toBe(2 * (3 * 24 + 1));
    rows.forEach((r, i) => {
      const c = csv[i]!;
      expect((r.datetime as Date).getTime()).toBe(Date.parse(c.datetime!));
      expect([
        r.bidding_zone,
        String(r.price_mwh),
        String(r.interpolated),
        String(r.year),
        String(r.covered_hours),
      ]).toEqual([c.bidding_zone, c.price_mwh, c.interpolated, c.year, c.covered_hours]);
      expect(r.time_zone).toBe('Europe/Berlin');
    });
  });

  it('answers 304 to its own ETag and the twin’s 422 body to an invalid parameter', async () => {
    const path = '/api/v1/export/prices?zone=FR&resolution=1D&datetime_from=2025-09-01&datetime_to=2025-10-01';
    const first = await t.get(path);
    await first.text();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"x/);
    const again = await t.get(path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const bad = await text('/api/v1/export/prices?zone=XX&resolution=2H');
    const twinBad = await text('/api/v1/prices?zone=XX&resolution=2H');
    expect(bad.res.status).toBe(422);
    expect(bad.body).toBe(twinBad.body);
    expect((await text('/api/v1/export/prices?format=xlsx')).res.status).toBe(422);
  });

  it('names ignored query parameters with a suggestion and reads resolution=1h as 1H', async () => {
    const res = await t.get(
      '/api/v1/prices?zones=FR&from=2025-10-01&resolution=1h&datetime_from=2025-10-01&datetime_to=2025-10-02&foo=1',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ignored-parameters')).toBe(
      'zones (did you mean zone?), from (did you mean datetime_from?), foo',
    );
    expect(((await res.json()) as any).meta.resolution).toBe('1H');
    const clean = await t.get('/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02');
    expect(clean.headers.get('x-ignored-parameters')).toBeNull();
  });

  it('is in the OpenAPI document with its formats and an example', async () => {
    const doc = (await (await t.get('/api/v1/openapi.json')).json()) as any;
    const op = doc.paths['/api/v1/export/prices'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual([
      'text/csv; charset=utf-8; header=present',
      'application/x-ndjson',
      'application/vnd.apache.arrow.stream',
      'application/vnd.apache.parquet',
    ]);
    expect(op.responses['200'].content['text/csv; charset=utf-8; header=present'].example).toMatch(
      /^datetime,bidding_zone/,
    );
    expect(op.parameters.map((p: any) => p.name)).toEqual([
      'datetime_from',
      'datetime_to',
      'resolution',
      'zone',
      'tz',
      'lineage',
      'format',
    ]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/export/'))).toHaveLength(4);
  });

  it('lets go of the chunks it has written while it is still streaming', async () => {
    const res = await t.get('/api/v1/export/prices?resolution=native&datetime_from=2024-10-01&datetime_to=2025-11-01');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const written: WeakRef<Uint8Array>[] = [];
    for (let i = 0; i < 40; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      written.push(new WeakRef(value));
    }
    expect(written.length).toBe(40);
    await new Promise((done) => setImmediate(done));
    collectGarbage();
    const kept = written.slice(0, -4).filter((ref) => ref.deref() !== undefined).length;
    await reader.cancel();
    expect(kept).toBeLessThan(4);
  });

  it.skipIf(backend !== 'postgres')(
    'ends a CSV written by COPY with a #error: line after whole rows when its connection dies mid-stream',
    async () => {
      const res = await t.get(
        '/api/v1/export/prices?resolution=native&datetime_from=2024-10-01&datetime_to=2025-11-01',
      );
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let body = '';
      while (body.split('\r\n').length < 3) body += decoder.decode((await reader.read()).value, { stream: true });
      await t.db.rawQuery(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%/* copyPricesCsv */%' AND pid <> pg_backend_pid()",
      );
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        body += decoder.decode(value, { stream: true });
      }
      const lines = body.trimEnd().split('\r\n');
      expect(lines[0]).toBe('datetime,bidding_zone,price_mwh,interpolated,year');
      expect(lines.at(-1)).toMatch(/^#error: export truncated: /);
      expect(lines.length).toBeLessThan(380 * 96 * 10);
      for (const line of lines.slice(1, -1))
        expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z,[A-Z_0-9]+,-?[\d.]+,(true|false),\d{4}$/);
    },
  );

  it.skipIf(backend !== 'postgres')(
    'cancels its statement when the client leaves mid-stream (prices CSV and Parquet, flows CSV): nothing of it stays in pg_stat_activity',
    async () => {
      const active = async () =>
        (
          await t.db.rawQuery<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND (query LIKE '%/* findPrices */%' OR query LIKE '%/* copyPricesCsv */%' OR query LIKE '%/* copyPriceColumns */%' OR query LIKE '%/* findFlowRows */%' OR query LIKE '%/* copyFlowsCsv */%') AND pid <> pg_backend_pid()",
          )
        )[0]!.n;
      for (const [name, format] of [
        ['prices', 'csv'],
        ['prices', 'parquet'],
        ['flows', 'csv'],
      ]) {
        const res = await t.get(
          `/api/v1/export/${name}?resolution=native&datetime_from=2024-10-01&datetime_to=2025-11-01&format=${format}`,
        );
        const reader = res.body!.getReader();
        await reader.read();
        await reader.cancel();
        // None twice in a row, 100 ms apart: a part started just as the client left is seen too
        // (it runs until its connection is discarded), and other files' statements come and go.
        const until = Date.now() + 5_000;
        let quiet = 0;
        while (quiet < 2 && Date.now() < until) {
          quiet = (await active()) === 0 ? quiet + 1 : 0;
          if (quiet < 2) await new Promise((r) => setTimeout(r, quiet ? 100 : 50));
        }
        expect(quiet, `${name} ${format}: an export statement still active 5 s after the client left`).toBe(2);
      }
    },
  );
});

describe.each(TEST_BACKENDS)('an export across the DE_AT_LU split with lineage, on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  // Its own database: it loads prices, and so does the next block on the same engine and seed.
  const t = blockApp(it, { own: true });
  const SPLIT = Date.UTC(2018, 8, 30, 22);
  const loaded = blockSetup();
  it.beforeEach(
    () =>
      loaded.run(async () => {
        const catalogue = await readCatalogue(t.db);
        const row = (code: string, ts: number, price: number): PricePointRow => ({
          zoneId: catalogue.zone(code)!.id,
          ts: new Date(ts),
          periodMinutes: 60,
          priceEurMwh: price,
          interpolated: false,
          source: 'entsoe',
        });
        await loadPrices(t.db, [
          ...Array.from({ length: 48 }, (_, i) => row('DE_AT_LU', SPLIT - (48 - i) * HOUR, 10 + i)),
          ...Array.from({ length: 48 }, (_, i) => row('DE_LU', SPLIT + i * HOUR, 100 + i)),
        ]);
      }),
    120_000,
  );

  it('answers DE_LU with DE_AT_LU before the split, as the /api/v1 answers of its days', async () => {
    const q = 'zone=DE_LU&lineage=true&resolution=native';
    const res = await t.get(`/api/v1/export/prices?${q}&datetime_from=2018-09-29T00:00Z&datetime_to=2018-10-03T00:00Z`);
    const rows = readCsv(await res.text());
    const twin: Row[] = [];
    for (const [from, to] of [
      ['2018-09-29T00:00Z', '2018-10-01T00:00Z'],
      ['2018-10-01T00:00Z', '2018-10-03T00:00Z'],
    ]) {
      twin.push(
        ...readCsv(
          await (await t.get(`/api/v1/prices?${q}&datetime_from=${from}&datetime_to=${to}&format=csv`)).text(),
        ),
      );
    }
    expect(rows).toEqual(twin);
    expect(rows).toHaveLength(94);
    expect(rows[0]).toMatchObject({
      datetime: '2018-09-29T00:00:00Z',
      bidding_zone: 'DE_AT_LU',
      series: 'DE_LU',
      price_mwh: '12',
    });
    expect(rows[46]).toMatchObject({
      datetime: '2018-09-30T22:00:00Z',
      bidding_zone: 'DE_LU',
      series: 'DE_LU',
      price_mwh: '100',
    });
  });

  it('writes lineage days in Berlin with their covered hours', async () => {
    const res = await t.get(
      '/api/v1/export/prices?zone=DE_LU&lineage=true&resolution=1D&tz=Europe/Berlin&datetime_from=2018-09-29&datetime_to=2018-10-03',
    );
    const rows = readCsv(await res.text());
    expect(rows.map((r) => [r.datetime, r.bidding_zone, r.covered_hours])).toEqual([
      ['2018-09-29T00:00:00+02:00', 'DE_AT_LU', '24'],
      ['2018-09-30T00:00:00+02:00', 'DE_AT_LU', '24'],
      ['2018-10-01T00:00:00+02:00', 'DE_LU', '24'],
      ['2018-10-02T00:00:00+02:00', 'DE_LU', '24'],
    ]);
  });
});

describe.each(TEST_BACKENDS)('export price text on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  // Its own database: it loads prices, and so does the block before on the same engine and seed.
  const t = blockApp(it, { own: true });
  /** Prices (EUR/MWh) at the edges of the 0.0001 rounding: ties either side of zero, tiny, long and large values. */
  const PRICES = [
    12.34,
    -0.00005,
    0.00005,
    0.00015,
    -0.00015,
    -3.14158265,
    1234.56785,
    0,
    -0,
    99999.99995,
    1e-7,
    -1e-7,
    0.1 + 0.2,
    45.00004999,
    -500,
    3000.5,
    2.675,
    -2.675,
    1.00005,
    0.0001,
    987654.32109876,
    -0.00004,
  ];
  const FROM = Date.UTC(2025, 0, 6);
  const loaded = blockSetup();
  it.beforeEach(
    () =>
      loaded.run(async () => {
        const catalogue = await readCatalogue(t.db);
        await loadPrices(
          t.db,
          PRICES.map((price, i) => ({
            zoneId: catalogue.zone('FR')!.id,
            ts: new Date(FROM + i * HOUR),
            periodMinutes: 60,
            priceEurMwh: price,
            interpolated: i % 3 === 0,
            source: 'entsoe',
          })),
        );
      }),
    120_000,
  );

  it('writes each price as the /api/v1 CSV writes it, byte for byte', async () => {
    const q = 'resolution=native&zone=FR&datetime_from=2025-01-06T00:00Z&datetime_to=2025-01-07T00:00Z';
    const exported = await (await t.get(`/api/v1/export/prices?${q}`)).text();
    const twin = await (await t.get(`/api/v1/prices?${q}&format=csv`)).text();
    const lines = exported.split('\r\n');
    expect(lines[2]).toBe('2025-01-06T01:00:00Z,FR,0,false,2025');
    expect(lines[3]).toBe('2025-01-06T02:00:00Z,FR,0.0001,false,2025');
    expect(lines[10]).toBe('2025-01-06T09:00:00Z,FR,100000,true,2025');
    expect(exported).toBe(twin);
  });

  it('writes each price as NDJSON byte for byte as the /api/v1 JSON rows', async () => {
    const q = 'resolution=native&zone=FR&datetime_from=2025-01-06T00:00Z&datetime_to=2025-01-07T00:00Z';
    const exported = await (await t.get(`/api/v1/export/prices?${q}&format=ndjson`)).text();
    const twin = (await (await t.get(`/api/v1/prices?${q}`)).json()) as { data: unknown[] };
    expect(twin.data).toHaveLength(PRICES.length);
    expect(exported).toBe(twin.data.map((r) => `${JSON.stringify(r)}\n`).join(''));
    expect(exported.split('\n')[9]).toBe(
      '{"datetime":"2025-01-06T09:00:00Z","bidding_zone":"FR","price_mwh":100000,"interpolated":true,"year":2025}',
    );
  });

  it('writes each price to Arrow and Parquet as the number the CSV text reads back to (a rounded tiny negative as -0)', async () => {
    const q = 'resolution=native&zone=FR&datetime_from=2025-01-06T00:00Z&datetime_to=2025-01-07T00:00Z';
    const csv = readCsv(await (await t.get(`/api/v1/export/prices?${q}`)).text());
    expect(csv).toHaveLength(PRICES.length);
    const { arrow, parquet } = await typedRows(t, q);
    for (const rows of [arrow, parquet]) {
      expect(rows.map((r) => (r.price_mwh as number) + 0)).toEqual(csv.map((c) => Number(c.price_mwh)));
      expect(rows.map(typedAsCsv)).toEqual(csv.map((c) => ({ ...c, price_mwh: String(Number(c.price_mwh)) })));
    }
  });
});
