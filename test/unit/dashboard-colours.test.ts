import { describe, expect, it } from 'vitest';
import { ZONE_COLOURS, zoneColour } from '../../src/dashboard/colours.js';
import { ZONES } from '../../src/domain/catalogue-data.js';

/** sRGB channel (0-255) to linear light. */
const linear = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
const channels = (hex: string) => [1, 3, 5].map((i) => linear(Number.parseInt(hex.slice(i, i + 2), 16)));

/** OKLab coordinates of a `#rrggbb` colour (Björn Ottosson's matrices). */
function oklab(hex: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = channels(hex);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}
const deltaE = (a: string, b: string) => Math.hypot(...oklab(a).map((v, i) => v - (oklab(b)[i] ?? 0)));
/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r = 0, g = 0, b = 0] = channels(hex);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}
const closest = (codes: readonly string[]) => {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < codes.length; i++)
    for (let j = i + 1; j < codes.length; j++)
      min = Math.min(min, deltaE(zoneColour(codes[i] ?? ''), zoneColour(codes[j] ?? '')));
  return min;
};

describe('dashboard zone colours', () => {
  const codes = ZONES.map((z) => z.code);

  it('give every current catalogue zone a colour of its own, from the fixed table', () => {
    expect(Object.keys(ZONE_COLOURS).sort()).toEqual([...codes].sort());
    expect(new Set(codes.map(zoneColour)).size).toBe(codes.length);
    for (const code of codes) expect(zoneColour(code)).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('keep the 30 first zones at least 0.10 apart in OKLab and all 46 at least 0.085', () => {
    const first30 = Object.keys(ZONE_COLOURS).slice(0, 30);
    expect(first30).toEqual(expect.arrayContaining(['DE_LU', 'FR', 'NL', 'ES', 'PL', 'DK_2', 'SE_4', 'HU', 'SK']));
    expect(closest(first30)).toBeGreaterThan(0.1);
    expect(codes.length).toBe(46);
    expect(closest(codes)).toBeGreaterThan(0.085);
    expect(deltaE('#0044cc', '#0044cc')).toBe(0);
    expect(deltaE('#000000', '#ffffff')).toBeCloseTo(1, 3);
  });

  it('draw every zone, DE_LU above all, with enough contrast on the white cards', () => {
    expect(contrast(zoneColour('DE_LU'), '#ffffff')).toBeGreaterThan(7);
    for (const code of codes) expect(contrast(zoneColour(code), '#ffffff'), code).toBeGreaterThanOrEqual(3);
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });

  it('depend only on the code: a zone outside the table gets a table colour, always the same', () => {
    expect(zoneColour('DE_AT_LU')).toBe(zoneColour('DE_AT_LU'));
    expect(Object.values(ZONE_COLOURS)).toContain(zoneColour('DE_AT_LU'));
    expect(zoneColour('FR')).toBe('#ff5500');
  });
});
