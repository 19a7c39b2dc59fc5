/**
 * Stable zone colours: a zone's colour depends on its code only (a fixed table of the catalogue's
 * 46 zones; an FNV-1a hash into it for a code outside it), so ticking another zone never recolours
 * the others. The table was picked by farthest-point sampling in OKLab among sRGB colours with at
 * least 3:1 contrast on white, DE_LU's strong blue first and the default zones next:
 * test/unit/dashboard-colours.test.ts checks every pair stays apart and every colour readable.
 */

/** Each catalogue zone's series colour, `#rrggbb`. */
export const ZONE_COLOURS: Readonly<Record<string, string>> = {
  DE_LU: '#0044cc',
  FR: '#fd5b0b',
  NL: '#097f23',
  ES: '#da4df9',
  PL: '#86013c',
  AL: '#698fbf',
  AT: '#8c03b5',
  BA: '#18505c',
  BE: '#99683f',
  BG: '#e4167a',
  CH: '#835ff2',
  CZ: '#cd7b9c',
  DK_1: '#785b8e',
  DK_2: '#643e03',
  EE: '#6b9a6c',
  FI: '#543084',
  GB: '#bc272c',
  GR: '#117780',
  HR: '#ba4eb4',
  HU: '#3771d1',
  IE_SEM: '#215515',
  IT_CALA: '#6715e1',
  IT_CNOR: '#b07be6',
  IT_CSUD: '#fd34bc',
  IT_NORD: '#942e79',
  IT_SARD: '#55a307',
  IT_SICI: '#87484e',
  IT_SUD: '#5c6239',
  LT: '#bb7e00',
  LV: '#2e5e9a',
  ME: '#c45a5e',
  MK: '#ec172d',
  NO_1: '#5d3b52',
  NO_2: '#737c24',
  NO_3: '#9b7288',
  NO_4: '#fd4f7a',
  NO_5: '#af38f0',
  PT: '#6047b0',
  RO: '#3f0bc0',
  RS: '#3947fb',
  SE_1: '#75037c',
  SE_2: '#5484fb',
  SE_3: '#be0264',
  SE_4: '#9369c0',
  SI: '#da02af',
  SK: '#15438f',
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

/** The colour of a zone's series, `#rrggbb`. */
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
