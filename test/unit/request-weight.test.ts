import { describe, expect, it } from 'vitest';
import { PAGE_WEIGHT_ROWS, requestWeight } from '../../src/security/use-inflight-limit.js';

const weight = (path: string) => requestWeight(new Request(`http://localhost${path}`));

describe('the slots a request holds when accepted', () => {
  it('is one more per 5,000 rows a REST page asks for', () => {
    expect(PAGE_WEIGHT_ROWS).toBe(5_000);
    expect(weight('/api/v1/flows?limit=4999')).toBe(1);
    expect(weight('/api/v1/flows?limit=5000')).toBe(2);
    expect(weight('/api/v1/flows?datetime_from=2025-01-01&limit=20000')).toBe(5);
    expect(weight('/api/v1/prices?limit=10000')).toBe(3);
  });

  it('is one for a request without a page limit, with a limit that is not a count, or outside the REST API', () => {
    expect(weight('/api/v1/flows')).toBe(1);
    expect(weight('/api/v1/flows?limit=abc')).toBe(1);
    expect(weight('/api/v1/flows?limit=-20000')).toBe(1);
    expect(weight('/api/v1/flows?limit=1e9')).toBe(1);
    expect(weight('/graphql?limit=20000')).toBe(1);
    expect(weight('/api/v10/flows?limit=20000')).toBe(1);
  });
});
