import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const SUMMARY = '/api/v1/flow-type-summary';
const CI_SHARE = '/api/v1/ci-share';
const SCATTER = '/api/v1/flow-price-scatter';
const DURATION = '/api/v1/flow-duration';
const KPIS = '/api/v1/price-kpis';
const EXCHANGE = '/api/v1/zone-import-export';

const AGGREGATES = [SUMMARY, CI_SHARE, SCATTER, DURATION, KPIS, EXCHANGE];
const WITH_RESOLUTION = [SUMMARY, CI_SHARE, SCATTER];
const WITHOUT_RESOLUTION = [DURATION, KPIS, EXCHANGE];
const WITH_BORDER = [SUMMARY, SCATTER, DURATION];
const WITH_ZONE = [CI_SHARE, DURATION, KPIS, EXCHANGE];

const RESOLUTION_MSG = "Input should be 'auto', 'native', '1H', '1D' or '1W'";
const DATETIME_MSG =
  "Invalid datetime: expected an ISO 8601 datetime (UTC when no offset) or 'now' optionally followed by -<n><unit>, unit one of m, H, h, d, w, M, y";
const FLOAT_MSG = 'Input should be a valid number, unable to parse string as a number';
const INT_MSG = 'Input should be a valid integer, unable to parse string as an integer';
const RANGE = 'datetime_from=2025-10-20&datetime_to=2025-10-27';

interface Issue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
}

const issue = (param: string, msg: string, type: string, input?: unknown): Issue => ({
  loc: ['query', param],
  msg,
  type,
  ...(input === undefined ? {} : { input }),
});
const floatIssue = (param: string, input: string) => issue(param, FLOAT_MSG, 'float_parsing', input);
const capIssue = (resolution: string, tail: string) =>
  issue(
    'resolution',
    `resolution=${resolution} allows a range of at most ${tail} (use a coarser resolution, auto, or a shorter range)`,
    'value_error',
    resolution,
  );

describe.each(TEST_BACKENDS)('aggregate endpoint contract on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it);

  async function detail(path: string): Promise<Issue[]> {
    const res = await t.get(path);
    expect(res.status, path).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { detail: Issue[] };
    expect(Object.keys(body), path).toEqual(['detail']);
    return body.detail;
  }
  async function ok(path: string): Promise<{ meta: Record<string, unknown>; data: unknown[] }> {
    const res = await t.get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as { meta: Record<string, unknown>; data: unknown[] };
  }

  describe.each(AGGREGATES)('%s', (path) => {
    it('names each unreadable datetime with type datetime_parsing', async () => {
      expect(await detail(`${path}?datetime_from=yesterday&datetime_to=2025-02-30`)).toEqual([
        issue('datetime_from', DATETIME_MSG, 'datetime_parsing', 'yesterday'),
        issue('datetime_to', DATETIME_MSG, 'datetime_parsing', '2025-02-30'),
      ]);
      expect(await detail(`${path}?datetime_from=now-3x`)).toEqual([
        issue('datetime_from', DATETIME_MSG, 'datetime_parsing', 'now-3x'),
      ]);
    });

    it('rejects an empty or inverted range on datetime_to', async () => {
      const later = 'datetime_to must be later than datetime_from';
      expect(await detail(`${path}?datetime_from=2025-10-02&datetime_to=2025-10-02`)).toEqual([
        issue('datetime_to', later, 'value_error', '2025-10-02'),
      ]);
      expect(await detail(`${path}?datetime_from=now&datetime_to=now-1d`)).toEqual([
        issue('datetime_to', later, 'value_error', 'now-1d'),
      ]);
      expect(await detail(`${path}?datetime_from=2099-01-01`)).toEqual([issue('datetime_to', later, 'value_error')]);
    });

    it('ignores parameters it does not declare, such as flow_type', async () => {
      expect((await ok(`${path}?${RANGE}&flow_type=sideways&limit=abc`)).data.length).toBeGreaterThan(0);
    });

    it('reports no pagination and derived provenance', async () => {
      const { meta } = await ok(`${path}?${RANGE}`);
      expect(meta).toMatchObject({ provenance: 'derived', upstream_sources: ['demo'], pagination: null });
      expect(meta).toMatchObject({
        resolved_datetime_from: '2025-10-20T00:00:00',
        resolved_datetime_to: '2025-10-27T00:00:00',
      });
    });
  });

  describe.each(WITH_RESOLUTION)('%s with a resolution parameter', (path) => {
    it('rejects unknown resolutions with type enum (1h, 1d and 1w are read as 1H, 1D and 1W)', async () => {
      for (const bad of ['bogus', '1x', '15min', '']) {
        expect(await detail(`${path}?resolution=${bad}`), bad).toEqual([
          issue('resolution', RESOLUTION_MSG, 'enum', bad),
        ]);
      }
    });

    it('caps explicit native at 48 hours and 1H at 14 days, on the resolution parameter', async () => {
      expect(
        await detail(`${path}?resolution=native&datetime_from=2025-10-20&datetime_to=2025-10-22T00:00:01`),
      ).toEqual([capIssue('native', '2 days; this range is longer than 2 days')]);
      expect(await detail(`${path}?resolution=native&datetime_from=2025-10-20&datetime_to=2025-10-23`)).toEqual([
        capIssue('native', '2 days; this range is 3.00 days'),
      ]);
      expect(await detail(`${path}?resolution=1H&datetime_from=2025-10-01&datetime_to=2025-10-16`)).toEqual([
        capIssue('1H', '14 days; this range is 15.00 days'),
      ]);
      await ok(`${path}?resolution=native&datetime_from=2025-10-20&datetime_to=2025-10-22`);
      await ok(`${path}?resolution=1H&datetime_from=2025-10-01&datetime_to=2025-10-15`);
    });

    it('puts no cap on 1D, 1W and auto', async () => {
      for (const resolution of ['1D', '1W', 'auto']) {
        const { meta } = await ok(`${path}?resolution=${resolution}&datetime_from=2023-01-01&datetime_to=2025-11-01`);
        expect(meta.resolution).toBe(resolution === '1D' ? '1D' : '1W');
      }
    });
  });

  describe.each(WITHOUT_RESOLUTION)('%s without a resolution parameter', (path) => {
    it('reports meta.resolution null and ignores any resolution given', async () => {
      for (const q of ['', '&resolution=bogus', '&resolution=native']) {
        const { meta, data } = await ok(`${path}?${RANGE}${q}`);
        expect(meta.resolution, q).toBeNull();
        expect(meta.pagination, q).toBeNull();
        expect(data.length).toBeGreaterThan(0);
      }
      expect(
        (await ok(`${path}?datetime_from=2023-01-01&datetime_to=2025-11-01&resolution=native`)).meta.resolution,
      ).toBeNull();
    });
  });

  describe.each(WITH_BORDER)('%s with a border parameter', (path) => {
    it.each([
      ['XX->FR', 'Unknown bidding zone: XX'],
      ['FR->ATLANTIS', 'Unknown bidding zone: ATLANTIS'],
      ['FR->PL', 'FR and PL do not share a border'],
      ['FR->FR', 'FR and FR do not share a border'],
      ['FR', "Invalid border 'FR': expected ZONE_FROM->ZONE_TO"],
      ['FR->', "Invalid border 'FR->': expected ZONE_FROM->ZONE_TO"],
      ['FR->DE_LU->NL', "Invalid border 'FR->DE_LU->NL': expected ZONE_FROM->ZONE_TO"],
    ])('rejects border=%s as value_error', async (bad, msg) => {
      expect(await detail(`${path}?border=FR->DE_LU&border=${encodeURIComponent(bad)}`)).toEqual([
        issue('border', msg, 'value_error', bad),
      ]);
    });

    it('accepts codes, EICs, lower case and the URL-encoded arrow', async () => {
      await ok(`${path}?${RANGE}&border=fr-%3Ede_lu&border=10YES-REE------0->FR`);
    });
  });

  describe.each(WITH_ZONE)('%s with a zone parameter', (path) => {
    it('rejects unknown zones as value_error naming them', async () => {
      expect(await detail(`${path}?zone=FR&zone=ATLANTIS&zone=XX`)).toEqual([
        issue('zone', 'Unknown bidding zone: ATLANTIS, XX', 'value_error', ['ATLANTIS', 'XX']),
      ]);
    });
  });

  it('applies at least 1D on /flow-type-summary and reports it', async () => {
    for (const resolution of ['native', '1H', 'auto']) {
      expect(
        (await ok(`${SUMMARY}?datetime_from=2025-10-20&datetime_to=2025-10-22&resolution=${resolution}`)).meta
          .resolution,
      ).toBe('1D');
    }
  });

  it('rejects non-numeric scatter bins as float_parsing', async () => {
    expect(await detail(`${SCATTER}?flow_bin_mw=abc&price_bin=x`)).toEqual([
      floatIssue('flow_bin_mw', 'abc'),
      floatIssue('price_bin', 'x'),
    ]);
    expect(await detail(`${SCATTER}?price_bin=0x10&flow_bin_mw=`)).toEqual([
      floatIssue('flow_bin_mw', ''),
      floatIssue('price_bin', '0x10'),
    ]);
  });

  it('rejects scatter bins out of range with the bound in the message', async () => {
    expect(await detail(`${SCATTER}?flow_bin_mw=0.5&price_bin=0`)).toEqual([
      issue('flow_bin_mw', 'Input should be greater than or equal to 1', 'greater_than_equal', '0.5'),
      issue('price_bin', 'Input should be greater than or equal to 0.01', 'greater_than_equal', '0'),
    ]);
    expect(await detail(`${SCATTER}?flow_bin_mw=10001&price_bin=1000.5`)).toEqual([
      issue('flow_bin_mw', 'Input should be less than or equal to 10000', 'less_than_equal', '10001'),
      issue('price_bin', 'Input should be less than or equal to 1000', 'less_than_equal', '1000.5'),
    ]);
    expect(await detail(`${SCATTER}?price_bin=x&flow_bin_mw=-5&resolution=bogus`)).toEqual([
      issue('resolution', RESOLUTION_MSG, 'enum', 'bogus'),
      issue('flow_bin_mw', 'Input should be greater than or equal to 1', 'greater_than_equal', '-5'),
      floatIssue('price_bin', 'x'),
    ]);
    await ok(`${SCATTER}?${RANGE}&flow_bin_mw=1e2&price_bin=.5`);
    await ok(`${SCATTER}?${RANGE}&flow_bin_mw=10000&price_bin=0.01`);
  });

  it('rejects flow-duration points that are not a whole number from 2 to 1001', async () => {
    for (const bad of ['abc', '1.5', '', '1e2']) {
      expect(await detail(`${DURATION}?points=${bad}`), bad).toEqual([issue('points', INT_MSG, 'int_parsing', bad)]);
    }
    expect(await detail(`${DURATION}?points=1`)).toEqual([
      issue('points', 'Input should be greater than or equal to 2', 'greater_than_equal', '1'),
    ]);
    expect(await detail(`${DURATION}?points=1002`)).toEqual([
      issue('points', 'Input should be less than or equal to 1001', 'less_than_equal', '1002'),
    ]);
    expect((await ok(`${DURATION}?${RANGE}&border=ES->FR&points=3.0`)).data).toHaveLength(3);
  });
});
