import { describe, expect, it } from 'vitest';
import { earlyStarts, earlyStartText } from '../../src/dashboard/zone-periods.js';

const DE_LU = { code: 'DE_LU', validFrom: '2018-09-30T22:00:00.000Z', predecessors: ['DE_AT_LU'] };
const FR = { code: 'FR', validFrom: null };
const BORDER = { code: 'DE_LU->FR', validFrom: '2018-09-30T22:00:00.000Z' };

describe('a range that starts before a zone existed', () => {
  it('names the zones and borders that began after the range start, and none that existed', () => {
    const early = earlyStarts([DE_LU, FR, BORDER], Date.parse('2018-01-01T00:00:00Z'));
    expect(early.map((e) => e.code)).toEqual(['DE_LU', 'DE_LU->FR']);
    expect(early[0]).toEqual({ code: 'DE_LU', fromMs: Date.parse('2018-09-30T22:00:00Z'), predecessors: ['DE_AT_LU'] });
    expect(earlyStarts([DE_LU, FR], Date.parse('2018-09-30T22:00:00Z'))).toEqual([]);
  });

  it("says from which day each can be shown and what the zone replaced, in the view's days", () => {
    const early = earlyStarts([DE_LU], Date.parse('2018-01-01T00:00:00Z'));
    const cet = (ms: number) => new Date(ms + 3_600_000 * 2).toISOString().slice(0, 10);
    expect(earlyStartText(early, cet)).toBe(
      'The range starts before the data can: DE_LU exists from 2018-10-01; before, it was part of DE_AT_LU.',
    );
  });
});
