import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/bounded-memo.js';

describe('a bounded memo', () => {
  const counted = (keep?: (key: number) => boolean) => {
    const calls: number[] = [];
    const square = boundedMemo(3, (n: number) => (calls.push(n), n * n), keep);
    return { square, calls };
  };

  it('computes a key once while it is held', () => {
    const { square, calls } = counted();
    expect([square(2), square(3), square(2), square(3)]).toEqual([4, 9, 4, 9]);
    expect(calls).toEqual([2, 3]);
  });

  it('starts over when full: at most max results held, every answer still right', () => {
    const { square, calls } = counted();
    for (const n of [1, 2, 3]) square(n);
    expect(square(4)).toBe(16);
    expect(square(1)).toBe(1);
    expect(square(4)).toBe(16);
    expect(calls).toEqual([1, 2, 3, 4, 1]);
  });

  it('computes every time the keys it is told not to keep', () => {
    const { square, calls } = counted((n) => n < 10);
    expect([square(12), square(12), square(5), square(5)]).toEqual([144, 144, 25, 25]);
    expect(calls).toEqual([12, 12, 5]);
  });
});
