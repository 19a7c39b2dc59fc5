import { describe, expect, it } from 'vitest';
import { takeRows } from '../../src/db/client.js';

describe('takeRows', () => {
  it('hands over the rows in an array of their own, in order, and leaves the driver result holding none', () => {
    const rows = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const first = rows[0];
    const result = { rows };
    const taken = takeRows<{ n: number }>(result);
    expect(taken).not.toBe(rows);
    expect(taken).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(taken[0]).toBe(first);
    expect(result.rows).toHaveLength(0);
  });

  it('gives an empty array for a result without rows', () => {
    expect(takeRows({ rows: [] })).toEqual([]);
  });
});
