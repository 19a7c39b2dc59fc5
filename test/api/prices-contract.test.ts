import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

describe.each(TEST_BACKENDS)('GET /api/v1/prices contract on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  const body = async (path: string) => {
    const res = await t.get(path);
    return { status: res.status, type: res.headers.get('content-type'), json: (await res.json()) as any };
  };

  it('answers the default query with the envelope, 1D rows of every zone over the last 30 days; demo data is derived, never measured', async () => {
    const { status, json } = await body('/api/v1/prices');
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(['data', 'meta']);
    expect(json.meta).toEqual({
      provenance: 'derived',
      upstream_sources: ['demo'],
      resolved_datetime_from: '2025-10-06T12:00:00',
      resolved_datetime_to: '2025-11-05T12:00:00',
      resolution: '1D',
      pagination: null,
    });
    const zones = new Set(json.data.map((r: any) => r.bidding_zone));
    expect(zones.size).toBe(30);
    expect(json.data.length).toBe(30 * 31);
    for (const row of json.data.slice(0, 50)) {
      expect(Object.keys(row).sort()).toEqual(['bidding_zone', 'datetime', 'interpolated', 'price_mwh', 'year']);
      expect(row.datetime).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
      expect(row.year).toBe(Number(row.datetime.slice(0, 4)));
    }
  });

  it('orders rows by datetime then zone', async () => {
    const { json } = await body('/api/v1/prices?datetime_from=2025-10-01&datetime_to=2025-10-02&zone=FR&zone=BE');
    const keys = json.data.map((r: any) => `${r.datetime}|${r.bidding_zone}`);
    expect(keys).toEqual([...keys].sort());
    expect(json.data[0]).toMatchObject({ datetime: '2025-10-01T00:00:00Z', bidding_zone: 'BE' });
  });

  it('returns 15-minute native rows after the 2025-10-01 switch and hourly ones before', async () => {
    const { json } = await body(
      '/api/v1/prices?datetime_from=2025-09-30T22:00:00&datetime_to=2025-10-01T02:00:00&zone=DE_LU&resolution=native',
    );
    expect(json.meta.resolution).toBe('native');
    expect(json.data.map((r: any) => r.datetime)).toEqual([
      '2025-09-30T22:00:00Z',
      '2025-09-30T23:00:00Z',
      '2025-10-01T00:00:00Z',
      '2025-10-01T00:15:00Z',
      '2025-10-01T00:30:00Z',
      '2025-10-01T00:45:00Z',
      '2025-10-01T01:00:00Z',
      '2025-10-01T01:15:00Z',
      '2025-10-01T01:30:00Z',
      '2025-10-01T01:45:00Z',
    ]);
  });

  it('accepts EIC codes and lower case, and reports the short code', async () => {
    const { status, json } = await body(
      '/api/v1/prices?zone=10yfr-rte------c&datetime_from=2025-10-10&datetime_to=2025-10-11',
    );
    expect(status).toBe(200);
    expect(new Set(json.data.map((r: any) => r.bidding_zone))).toEqual(new Set(['FR']));
  });

  it('picks the resolution by range width under auto', async () => {
    const cases: [string, string][] = [
      ['datetime_from=2025-10-10&datetime_to=2025-10-12', 'native'],
      ['datetime_from=2025-10-10&datetime_to=2025-10-12T00:00:01', '1H'],
      ['datetime_from=2025-10-01&datetime_to=2025-10-15', '1H'],
      ['datetime_from=2025-09-01&datetime_to=2025-11-01', '1D'],
      ['datetime_from=2025-01-01&datetime_to=2025-11-01', '1W'],
    ];
    for (const [q, expected] of cases)
      expect((await body(`/api/v1/prices?zone=FR&${q}`)).json.meta.resolution, q).toBe(expected);
  });

  it('stamps 1W rows with the Monday of the ISO week', async () => {
    const { json } = await body('/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-11-01&resolution=1W');
    expect(json.data.map((r: any) => r.datetime)).toEqual([
      '2025-09-29T00:00:00Z',
      '2025-10-06T00:00:00Z',
      '2025-10-13T00:00:00Z',
      '2025-10-20T00:00:00Z',
      '2025-10-27T00:00:00Z',
    ]);
  });
});

describe.each(TEST_BACKENDS)('GET /api/v1/prices errors on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it);

  const detail = async (path: string, init?: RequestInit) => {
    const res = await t.get(path, init);
    return { status: res.status, json: (await res.json()) as any, res };
  };

  it('rejects an unknown resolution with a FastAPI-style 422 of type enum', async () => {
    const { status, json } = await detail('/api/v1/prices?resolution=5min');
    expect(status).toBe(422);
    expect(json.detail).toHaveLength(1);
    expect(json.detail[0]).toMatchObject({ loc: ['query', 'resolution'], type: 'enum' });
    expect(json.detail[0].msg).toBe("Input should be 'auto', 'native', '1H', '1D' or '1W'");
  });

  it('rejects native over more than 2 days and 1H over more than 14 days', async () => {
    const native = await detail(
      '/api/v1/prices?resolution=native&datetime_from=2025-10-01&datetime_to=2025-10-03T00:00:01',
    );
    expect(native.status).toBe(422);
    expect(native.json.detail[0].loc).toEqual(['query', 'resolution']);
    expect(
      (await detail('/api/v1/prices?resolution=native&datetime_from=2025-10-01&datetime_to=2025-10-03')).status,
    ).toBe(200);
    expect((await detail('/api/v1/prices?resolution=1H&datetime_from=2025-10-01&datetime_to=2025-10-16')).status).toBe(
      422,
    );
    expect((await detail('/api/v1/prices?resolution=1H&datetime_from=2025-10-01&datetime_to=2025-10-15')).status).toBe(
      200,
    );
  });

  it('names the parameter of an unreadable datetime, an inverted range and an unknown zone', async () => {
    expect((await detail('/api/v1/prices?datetime_from=yesterday')).json.detail[0].loc).toEqual([
      'query',
      'datetime_from',
    ]);
    expect((await detail('/api/v1/prices?datetime_to=2025-02-30')).json.detail[0].loc).toEqual([
      'query',
      'datetime_to',
    ]);
    const inverted = await detail('/api/v1/prices?datetime_from=now&datetime_to=now-1d');
    expect(inverted.status).toBe(422);
    expect(inverted.json.detail[0].loc).toEqual(['query', 'datetime_to']);
    const zone = await detail('/api/v1/prices?zone=FR&zone=ATLANTIS');
    expect(zone.status).toBe(422);
    expect(zone.json.detail[0]).toMatchObject({ loc: ['query', 'zone'], type: 'value_error' });
  });

  it('ignores unknown parameters and takes the last value of a repeated scalar', async () => {
    const { status, json } = await detail('/api/v1/prices?foo=bar&resolution=bogus&resolution=1D');
    expect(status).toBe(200);
    expect(json.meta.resolution).toBe('1D');
  });

  it('answers an empty database with no rows and no sources', async () => {
    const { json } = await detail('/api/v1/prices');
    expect(json.data).toEqual([]);
    expect(json.meta.upstream_sources).toEqual([]);
  });

  it('answers unknown paths with a JSON 404 and other methods with a JSON 405', async () => {
    const nf = await detail('/api/v1/nothing');
    expect(nf.status).toBe(404);
    expect(nf.json).toEqual({ detail: 'Not Found' });
    const na = await detail('/api/v1/prices', { method: 'POST' });
    expect(na.status).toBe(405);
    expect(na.json).toEqual({ detail: 'Method Not Allowed' });
    expect(na.res.headers.get('allow')).toBe('GET, HEAD');
  });
});
