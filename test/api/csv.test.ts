import { describe, expect } from 'vitest';
import { DataType, type Field as ArrowField, tableFromIPC } from 'apache-arrow';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** RFC 4180 reader: records of fields; quoted fields may hold commas, doubled quotes, CR and LF. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && field === '') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\r') throw new Error(`text after a closing quote at ${i}`);
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`bare CR at ${i}`);
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n') {
      throw new Error(`bare LF at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('last record without CRLF');
  return records;
}

/** A JSON row flattened as the CSV promises, built independently: dotted keys, null empty, lists joined with ;. */
function flatten(value: unknown, prefix: string, out: Record<string, string>, shape: unknown): void {
  if (shape !== null && typeof shape === 'object' && !Array.isArray(shape)) {
    for (const key of Object.keys(shape)) {
      const v = value === null || value === undefined ? null : (value as Record<string, unknown>)[key];
      flatten(v, prefix ? `${prefix}.${key}` : key, out, (shape as Record<string, unknown>)[key]);
    }
    return;
  }
  out[prefix] = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(';') : String(value);
}

const QUERIES: Record<string, string> = {
  '/api/v1/flows': 'datetime_from=2025-10-20&datetime_to=2025-10-21&limit=300',
  '/api/v1/prices': 'datetime_from=2025-10-20&datetime_to=2025-10-22&zone=DE_LU&zone=FR',
};
const queryOf = (path: string) => QUERIES[path] ?? 'datetime_from=2025-10-20&datetime_to=2025-10-22';

describe.each(TEST_BACKENDS)('CSV and Arrow responses on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  it.each(ENDPOINTS.map((e) => [e.path] as const))(
    '%s as CSV holds the JSON rows field by field',
    async (path) => {
      const [jsonRes, csvRes] = await Promise.all([
        t.get(`${path}?${queryOf(path)}`),
        t.get(`${path}?${queryOf(path)}&format=csv`),
      ]);
      expect(csvRes.status).toBe(200);
      expect(csvRes.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const body = (await jsonRes.json()) as { data: Record<string, unknown>[] };
      expect(body.data.length).toBeGreaterThan(0);
      const [header, ...records] = readCsv(await csvRes.text());
      const withObjects = body.data.find((r) => Object.values(r).every((v) => v !== null)) ?? body.data[0];
      const expected = body.data.map((r) => {
        const out: Record<string, string> = {};
        flatten(r, '', out, shapeOf(withObjects, body.data));
        return out;
      });
      expect(header).toEqual(Object.keys(expected[0] ?? {}));
      expect(records.map((rec) => Object.fromEntries(rec.map((v, i) => [header?.[i], v])))).toEqual(expected);
    },
    120_000,
  );

  it('writes local-time rows under tz exactly as the JSON does, offsets included', async () => {
    const query =
      '/api/v1/prices?datetime_from=2025-10-25&datetime_to=2025-10-28&zone=DE_LU&resolution=1D&tz=Europe/Berlin';
    const json = (await (await t.get(query)).json()) as { data: { datetime: string; price_mwh: number }[] };
    const csv = await t.get(`${query}&format=csv`);
    expect(csv.headers.get('x-time-zone')).toBe('Europe/Berlin');
    const [header, ...records] = readCsv(await csv.text());
    const at = (name: string) => header!.indexOf(name);
    expect(records.map((r) => r[at('datetime')])).toEqual([
      '2025-10-25T00:00:00+02:00',
      '2025-10-26T00:00:00+02:00',
      '2025-10-27T00:00:00+01:00',
    ]);
    expect(records.map((r) => r[at('datetime')])).toEqual(json.data.map((r) => r.datetime));
    expect(records.map((r) => Number(r[at('price_mwh')]))).toEqual(json.data.map((r) => r.price_mwh));
  }, 60_000);

  it('sends a full /flows page (14 days of hours, nearly 20,000 rows) in pieces, the header in the first', async () => {
    const res = await t.get('/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-11-03&resolution=1H&format=csv');
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(19_000);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(first.done).toBe(false);
    let text = decoder.decode(first.value, { stream: true });
    expect(text.split('\r\n').length).toBeLessThan(2_000);
    let reads = 1;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      reads++;
      text += decoder.decode(next.value, { stream: true });
    }
    expect(reads).toBeGreaterThan(10);
    expect(readCsv(text)).toHaveLength(1 + total);
  });

  it.each(ENDPOINTS.map((e) => [e.path] as const))(
    '%s as Arrow holds the JSON rows in typed columns',
    async (path) => {
      const [jsonRes, arrowRes] = await Promise.all([
        t.get(`${path}?${queryOf(path)}`),
        t.get(`${path}?${queryOf(path)}&format=arrow`),
      ]);
      expect(arrowRes.status).toBe(200);
      expect(arrowRes.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
      const body = (await jsonRes.json()) as { data: Record<string, unknown>[] };
      const table = tableFromIPC(new Uint8Array(await arrowRes.arrayBuffer()));
      expect(table.schema.fields.map((f) => f.name)).toEqual(Object.keys(body.data[0] ?? {}));
      const rows = table.toArray().map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
      expect(rows).toEqual(body.data.map((r) => arrowExpected(r, table.schema.fields)));
    },
    120_000,
  );

  it.each(ENDPOINTS.map((e) => [e.path] as const))(
    '%s as Arrow under tz=Europe/Paris holds the JSON rows: instants as they are, local days as those dates',
    async (path) => {
      const query = `${queryOf(path)}&tz=Europe/Paris`;
      const [jsonRes, arrowRes] = await Promise.all([
        t.get(`${path}?${query}`),
        t.get(`${path}?${query}&format=arrow`),
      ]);
      expect([jsonRes.status, arrowRes.status]).toEqual([200, 200]);
      const body = (await jsonRes.json()) as { data: Record<string, unknown>[] };
      const table = tableFromIPC(new Uint8Array(await arrowRes.arrayBuffer()));
      const rows = table.toArray().map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
      expect(rows).toEqual(body.data.map((r) => arrowExpected(r, table.schema.fields)));
    },
    120_000,
  );

  it('streams a /flows page as Arrow record batches of 1,000 rows', async () => {
    const res = await t.get(
      '/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-27&resolution=1H&format=arrow',
      { headers: { accept: 'text/csv' } },
    );
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(5_000);
    const reader = res.body!.getReader();
    const parts: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    expect(parts).toHaveLength(Math.ceil(total / 1_000) + 1);
    const table = tableFromIPC(parts);
    expect(table.numRows).toBe(total);
    expect(table.batches.every((b) => b.numRows <= 1_000)).toBe(true);
    expect(String(table.schema.fields.find((f) => f.name === 'datetime')?.type)).toBe('Timestamp<MILLISECOND, UTC>');
  });

  it('takes text/csv from Accept, lets ?format= win, answers */* with JSON and varies on Accept', async () => {
    const path = '/api/v1/prices?zone=FR&datetime_from=2025-10-20&datetime_to=2025-10-21';
    const type = async (accept: string | null, query = '') => {
      const res = await t.get(path + query, accept ? { headers: { accept } } : undefined);
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toMatch(/accept/i);
      await res.arrayBuffer();
      return res.headers.get('content-type');
    };
    expect(await type('text/csv')).toMatch(/^text\/csv/);
    expect(await type('application/json;q=0.9, text/csv')).toMatch(/^text\/csv/);
    expect(await type('text/csv;q=0.5, application/json')).toMatch(/^application\/json/);
    expect(await type('*/*')).toMatch(/^application\/json/);
    expect(await type(null)).toMatch(/^application\/json/);
    expect(await type('text/csv', '&format=json')).toMatch(/^application\/json/);
    expect(await type('application/json', '&format=csv')).toMatch(/^text\/csv/);
  });

  it('answers an unknown format with the JSON 422 naming the parameter, whatever Accept says', async () => {
    const res = await t.get('/api/v1/prices?format=xml&resolution=2H', { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { detail: { loc: string[]; type: string; input: unknown }[] };
    expect(body.detail.map((d) => d.loc)).toEqual([
      ['query', 'resolution'],
      ['query', 'format'],
    ]);
    expect(body.detail[1]).toMatchObject({ type: 'enum', input: 'xml' });
  });

  it('carries the meta in headers, with paging and a Link to the next page on /flows', async () => {
    const res = await t.get(
      '/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-21&limit=100&offset=200&format=csv',
    );
    const json = (await (
      await t.get('/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-21&limit=100&offset=200')
    ).json()) as { meta: any };
    const h = (name: string) => res.headers.get(name);
    expect(h('x-provenance')).toBe(json.meta.provenance);
    expect(h('x-upstream-sources')).toBe(json.meta.upstream_sources.join(', '));
    expect(h('x-resolved-datetime-from')).toBe('2025-10-20T00:00:00');
    expect(h('x-resolved-datetime-to')).toBe('2025-10-21T00:00:00');
    expect(h('x-resolution')).toBe(json.meta.resolution);
    expect(h('x-total-count')).toBe(String(json.meta.pagination.total));
    expect([h('x-limit'), h('x-offset'), h('x-next-offset')]).toEqual(['100', '200', '300']);
    expect(h('link')).toBe(
      '</api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-21&limit=100&offset=300&format=csv>; rel="next"',
    );
    expect(h('content-disposition')).toBe('attachment; filename="flows.csv"');
    await res.arrayBuffer();
    const last = await t.get(
      `/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-21&offset=${json.meta.pagination.total - 1}&format=csv`,
    );
    expect(last.headers.get('x-next-offset')).toBeNull();
    expect(last.headers.get('link')).toBeNull();
    expect(readCsv(await last.text())).toHaveLength(2);
  });

  it('omits null meta values and lets a browser read the meta headers across origins', async () => {
    const res = await t.get('/api/v1/zones?format=csv', { headers: { origin: 'https://example.org' } });
    expect(res.headers.get('x-provenance')).toBe('derived');
    expect(res.headers.get('x-resolution')).toBeNull();
    expect(res.headers.get('x-total-count')).toBeNull();
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of [
      'x-provenance',
      'x-upstream-sources',
      'x-resolved-datetime-from',
      'x-total-count',
      'x-next-offset',
      'link',
    ])
      expect(exposed).toContain(name);
    await res.arrayBuffer();
  });

  it('answers HEAD with the CSV headers', async () => {
    const res = await t.get('/api/v1/prices?zone=FR&format=csv', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('x-provenance')).toBe('derived');
    await res.body?.cancel();
  });
});

/** The nested shape of an endpoint's rows: objects merged over all rows (a null object takes another row's keys). */
function shapeOf(sample: Record<string, unknown> | undefined, rows: readonly Record<string, unknown>[]): unknown {
  const merge = (values: unknown[]): unknown => {
    const objects = values.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v)) as Record<
      string,
      unknown
    >[];
    if (objects.length === 0) return null;
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
    return Object.fromEntries(keys.map((k) => [k, merge(objects.map((o) => o[k]))]));
  };
  return merge([sample, ...rows]);
}

/** A JSON row as Arrow gives it back: datetimes and days as epoch milliseconds, structs field by field. */
function arrowExpected(
  row: Record<string, unknown> | null,
  fields: readonly ArrowField[],
): Record<string, unknown> | null {
  if (row === null) return null;
  return Object.fromEntries(
    fields.map((f) => {
      const v = row[f.name];
      if (v === null || v === undefined) return [f.name, null];
      if (DataType.isTimestamp(f.type) || DataType.isDate(f.type)) return [f.name, Date.parse(v as string)];
      if (DataType.isStruct(f.type)) return [f.name, arrowExpected(v as Record<string, unknown>, f.type.children)];
      return [f.name, v];
    }),
  );
}
