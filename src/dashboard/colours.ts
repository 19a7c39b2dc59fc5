/**
 * Stable colours: a zone's colour depends on its code only (a fixed table of the catalogue's zones;
 * an FNV-1a hash for a code outside it), so ticking another zone never recolours the others.
 */

/** Twelve distinguishable colours (Tableau 10 and two more). */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#17becf',
  '#8c564b',
];

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The catalogue's zones in code order: the fixed table, each zone takes the palette colour of its place. */
const ZONE_ORDER =
  'AL AT BA BE BG CH CZ DE_LU DK_1 DK_2 EE ES FI FR GB GR HR HU IE_SEM IT_CALA IT_CNOR IT_CSUD IT_NORD IT_SARD IT_SICI IT_SUD LT LV ME MK NL NO_1 NO_2 NO_3 NO_4 NO_5 PL PT RO RS SE_1 SE_2 SE_3 SE_4 SI SK'.split(
    ' ',
  );

/** The colour of a zone's series, `#rrggbb`. */
export function zoneColour(code: string): string {
  const place = ZONE_ORDER.indexOf(code);
  return PALETTE[(place >= 0 ? place : fnv1a(code)) % PALETTE.length] ?? '#4e79a7';
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
