/**
 * Stable colours: a zone's colour depends on its code only (a fixed table of the catalogue's zones;
 * an FNV-1a hash into that table for a code outside it), so ticking another zone never recolours
 * the others, and a zone has the same colour in every chart and on the map.
 *
 * The table was picked by farthest-point sampling in OKLab over the sRGB colours with a contrast of
 * 3:1 to 12:1 on white (WCAG's bound for graphics), starting from DE_LU's dark blue: the 30 zones
 * listed first (the central and northern markets) are at least 0.10 apart in OKLab (ΔE, a just
 * noticeable difference is about 0.02), all 46 at least 0.09. test/unit/dashboard-colours.test.ts
 * checks both and DE_LU's contrast.
 */

/** The colour of each catalogue zone, `#rrggbb`; the first 30 entries are the most distinct. */
export const ZONE_COLOURS: Readonly<Record<string, string>> = {
  DE_LU: '#0044cc',
  FR: '#ff5500',
  NL: '#00aa00',
  ES: '#dd00ff',
  PL: '#770011',
  AT: '#6699cc',
  BE: '#005500',
  CH: '#880099',
  CZ: '#886644',
  DK_1: '#dd2288',
  DK_2: '#333366',
  IT_NORD: '#8855ee',
  SE_3: '#bb1100',
  SE_4: '#006677',
  NO_1: '#bb7799',
  NO_2: '#bb8800',
  HU: '#0077ff',
  SK: '#008855',
  SI: '#775588',
  HR: '#554433',
  RO: '#6600dd',
  BG: '#bb77ee',
  GR: '#ff44cc',
  PT: '#990055',
  FI: '#779977',
  EE: '#bb11bb',
  LV: '#550099',
  LT: '#661155',
  GB: '#ff5588',
  IE_SEM: '#228899',
  AL: '#4466bb',
  BA: '#556611',
  IT_CALA: '#bb5555',
  IT_CNOR: '#ee0033',
  IT_CSUD: '#778800',
  IT_SARD: '#004444',
  IT_SICI: '#aa00ff',
  IT_SUD: '#7788ff',
  ME: '#aa55aa',
  MK: '#444499',
  NO_3: '#222299',
  NO_4: '#4444ff',
  NO_5: '#0000ff',
  RS: '#8877bb',
  SE_1: '#883300',
  SE_2: '#dd7766',
};

const TABLE = Object.values(ZONE_COLOURS);

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The colour of a zone's series and of its ring on the map, `#rrggbb`. */
export function zoneColour(code: string): string {
  return ZONE_COLOURS[code] ?? TABLE[fnv1a(code) % TABLE.length] ?? '#0044cc';
}

/** Stops of the price scale, low (blue) to high (red). */
export const PRICE_STOPS = ['#2166ac', '#67a9cf', '#f7f7f7', '#ef8a62', '#b2182b'];

const rgb = (hex: string): [number, number, number] =>
  [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** The price colour of `value` on a scale from `min` to `max` (EUR/MWh), `rgb(r,g,b)`. */
export function priceColour(value: number, min: number, max: number): string {
  const t = max > min ? Math.min(1, Math.max(0, (value - min) / (max - min))) : 0.5;
  const pos = t * (PRICE_STOPS.length - 1);
  const i = Math.min(PRICE_STOPS.length - 2, Math.floor(pos));
  const a = rgb(PRICE_STOPS[i] ?? '#000000');
  const b = rgb(PRICE_STOPS[i + 1] ?? '#000000');
  const mix = a.map((c, k) => Math.round(c + (pos - i) * ((b[k] ?? 0) - c)));
  return `rgb(${mix.join(',')})`;
}
