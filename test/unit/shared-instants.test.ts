import { describe, expect, it } from 'vitest';
import { sharedInstants } from '../../src/repositories/sql/time.js';

describe('Dates of rows read in datetime order', () => {
  it('gives consecutive rows of one instant the same Date, and each instant its exact time', () => {
    const instant = sharedInstants();
    const ms = [0, 0, 3_600_000, 3_600_000, 3_600_000, 0, 1_792_886_400_123];
    const dates = ms.map(instant);
    expect(dates.map((d) => d.getTime())).toEqual(ms);
    expect(dates[1]).toBe(dates[0]);
    expect(dates[4]).toBe(dates[2]);
    expect(dates[2]).not.toBe(dates[1]);
    expect(dates[5]).not.toBe(dates[0]);
  });
});
