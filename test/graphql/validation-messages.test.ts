import { describe, expect } from 'vitest';
import { shownInput } from '../../src/errors.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

interface Answer {
  errors?: { message: string; extensions?: { code?: string; issues?: { param: string }[] } }[];
}

describe('shownInput', () => {
  it('quotes text as JSON, prints numbers as JavaScript does and cuts text after 80 characters', () => {
    expect(shownInput('XX')).toBe('"XX"');
    expect(shownInput('say "hi"')).toBe('"say \\"hi\\""');
    expect(shownInput(0.5)).toBe('0.5');
    expect(shownInput(1e300)).toBe('1e+300');
    expect(shownInput(['A', 1])).toBe('["A",1]');
    expect(shownInput('a'.repeat(81))).toBe(`"${'a'.repeat(80)}…"`);
  });
});

describe('GraphQL argument validation messages', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);

  async function errorOf(query: string, variables?: Record<string, unknown>) {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as Answer;
    expect(body.errors, query).toHaveLength(1);
    const [error] = body.errors!;
    expect(error!.extensions?.code, query).toBe('BAD_USER_INPUT');
    return { message: error!.message, params: error!.extensions!.issues!.map((i) => i.param) };
  }

  it('names each unknown zone by its index in the list and quotes it, keeping the suggestion', async () => {
    const e = await errorOf('{ prices(zones: ["XX", "DE_LU", "FRR"]) { meta { resolution } } }');
    expect(e.params).toEqual(['zones.0', 'zones.2']);
    expect(e.message).toBe(
      'zones.0: Unknown bidding zone: XX (got "XX"); zones.2: Unknown bidding zone: FRR; did you mean FR? (got "FRR")',
    );
  });

  it('names a bad border by its index and gives the whole border as written', async () => {
    const e = await errorOf('{ flowTypeSummary(borders: ["FR->ES", "DE_LU->XX", "FR->PT"]) { meta { resolution } } }');
    expect(e.message).toBe(
      'borders.1: Unknown bidding zone: XX (got "DE_LU->XX"); borders.2: FR and PT do not share a border (got "FR->PT")',
    );
  });

  it('gives page sizes and bin widths as numbers, as sent', async () => {
    expect((await errorOf('{ flows(first: 0) { pageInfo { hasNextPage } } }')).message).toBe(
      'first: Too small: expected number to be >=1 (got 0)',
    );
    expect((await errorOf('{ prices(first: 100001) { pageInfo { hasNextPage } } }')).message).toMatch(
      /^first: Too big: .* \(got 100001\)$/,
    );
    expect((await errorOf('{ flowPriceScatter(flowBinMw: 0.5) { meta { resolution } } }')).message).toBe(
      'flowBinMw: Too small: expected number to be >=1 (got 0.5)',
    );
    expect((await errorOf('{ flowDuration(points: 1) { meta { resolution } } }')).message).toBe(
      'points: Too small: expected number to be >=2 (got 1)',
    );
  });

  it('quotes unreadable datetimes, also when sent as variables', async () => {
    const e = await errorOf('query($from: String) { ciShare(from: $from) { meta { resolution } } }', {
      from: 'yesterday',
    });
    expect(e.params).toEqual(['from']);
    expect(e.message).toMatch(/^from: Invalid datetime: .* \(got "yesterday"\)$/);
    const reversed = await errorOf('{ prices(from: "2025-10-05", to: "2025-10-01") { meta { resolution } } }');
    expect(reversed.message).toBe('to: datetime_to must be later than datetime_from (got "2025-10-01")');
  });

  it('accepts NATIVE and HOURLY over any range: a connection page is bounded by first, a binned aggregate by its bins', async () => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          '{ prices(from: "2025-10-01", to: "2025-10-05", resolution: NATIVE, first: 1) { meta { resolution } } flows(from: "2025-01-01", to: "2025-10-05", resolution: HOURLY, first: 1) { meta { resolution } } ciShare(from: "2025-01-01", to: "2025-02-05", resolution: HOURLY) { meta { resolution } } flowPriceScatter(from: "2025-01-01", to: "2025-10-05", resolution: HOURLY) { meta { resolution } } }',
      }),
    });
    const body = (await res.json()) as Answer & { data?: Record<string, { meta: { resolution: string } }> };
    expect(body.errors).toBeUndefined();
    expect(Object.values(body.data!).map((d) => d.meta.resolution)).toEqual(['NATIVE', 'HOURLY', 'HOURLY', 'HOURLY']);
  });

  it('cuts a long value in the message after 80 characters', async () => {
    const long = 'Q'.repeat(300);
    const e = await errorOf('query($z: [String!]) { zones(zones: $z) { code } }', { z: [long] });
    expect(e.message).toContain(`(got "${'Q'.repeat(80)}…")`);
  });
});
