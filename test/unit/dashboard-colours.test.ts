import { differenceEuclidean, wcagContrast } from 'culori';
import { describe, expect, it } from 'vitest';
import { ZONE_COLOURS, zoneColour } from '../../src/dashboard/colours.js';
import { ZONES } from '../../src/domain/catalogue-data.js';

/** OKLab distance (culori, an independent implementation) below which two series read as one colour. */
const MIN_OKLAB_DISTANCE = 0.08;
const oklab = differenceEuclidean('oklab');

describe('dashboard zone colours', () => {
  it('gives every current catalogue zone its own colour from the table', () => {
    for (const z of ZONES) expect(ZONE_COLOURS[z.code], z.code).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(ZONES.map((z) => zoneColour(z.code))).size).toBe(ZONES.length);
  });

  it('keeps every pair of the 46 zone colours apart in OKLab, so 30 zones ticked at once stay distinct', () => {
    const colours = Object.entries(ZONE_COLOURS);
    let closest = { d: Number.POSITIVE_INFINITY, pair: '' };
    for (const [i, [a, ca]] of colours.entries())
      for (const [b, cb] of colours.slice(i + 1)) {
        const d = oklab(ca, cb);
        if (d < closest.d) closest = { d, pair: `${a}/${b}` };
      }
    expect(closest.d, closest.pair).toBeGreaterThanOrEqual(MIN_OKLAB_DISTANCE);
  });

  it('draws each colour readable on the white cards (WCAG contrast at least 3:1), DE_LU among the strongest', () => {
    const contrasts = Object.entries(ZONE_COLOURS).map(([code, c]) => [code, wcagContrast(c, '#ffffff')] as const);
    for (const [code, c] of contrasts) expect(c, code).toBeGreaterThanOrEqual(3);
    const deLu = wcagContrast(zoneColour('DE_LU'), '#ffffff');
    expect(deLu).toBeGreaterThan(7);
  });

  it('colours a zone outside the table from the table, the same on every call', () => {
    expect(zoneColour('DE_AT_LU')).toBe(zoneColour('DE_AT_LU'));
    expect(Object.values(ZONE_COLOURS)).toContain(zoneColour('DE_AT_LU'));
  });
});
