import { describe, expect, it } from 'vitest';
import { earlyInView, firstWholeDay } from '../../src/dashboard/range-notice.js';

const DE_LU = { code: 'DE_LU', validFrom: '2018-09-30T22:00:00.000Z', predecessors: ['DE_AT_LU'] };
const FR = { code: 'FR', validFrom: null };
const BORDER = { code: 'DE_LU->FR', validFrom: '2018-09-30T22:00:00.000Z' };
const view = { zones: [DE_LU, FR], codes: ['DE_LU', 'FR'], border: BORDER, timeZone: 'Europe/Berlin' };

describe('a view whose range starts before its selection existed', () => {
  it("finds the selected zones and the border that began after the range's start, in the view's wall clock", () => {
    const early = earlyInView(view, Date.parse('2018-09-01T00:00:00Z'));
    expect(early.map((e) => [e.code, new Date(e.fromMs).toISOString()])).toEqual([
      ['DE_LU', '2018-10-01T00:00:00.000Z'],
      ['DE_LU->FR', '2018-10-01T00:00:00.000Z'],
    ]);
    expect(earlyInView(view, Date.parse('2018-10-01T00:00:00Z'))).toEqual([]);
  });

  it('ignores zones that are not selected', () => {
    const early = earlyInView({ ...view, codes: ['FR'], border: undefined }, Date.parse('2018-09-01T00:00:00Z'));
    expect(early).toEqual([]);
  });

  it('offers the first whole day on which every one exists', () => {
    const early = (iso: string) => ({ code: 'X', fromMs: Date.parse(iso), predecessors: [] });
    expect(firstWholeDay([early('2018-10-01T00:00:00Z')])).toBe('2018-10-01');
    expect(firstWholeDay([early('2018-09-20T00:00:00Z'), early('2018-10-01T05:00:00Z')])).toBe('2018-10-02');
  });
});
