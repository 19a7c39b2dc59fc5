import { InputError } from '../errors.js';
import { BORDERS, type CatalogueZone, ZONES } from './catalogue-data.js';

export { BORDERS, type CatalogueZone, ZONES };

const byKey = new Map<string, CatalogueZone>();
for (const z of ZONES) {
  byKey.set(z.code.toUpperCase(), z);
  byKey.set(z.eic.toUpperCase(), z);
}

const borderKeys = new Set(BORDERS.map(([a, b]) => `${a}->${b}`));

/** Finds a zone by short code or EIC, case-insensitively; `DE-LU` is read as `DE_LU`. */
export function findZone(text: string): CatalogueZone | undefined {
  const key = text.trim().toUpperCase();
  return byKey.get(key) ?? byKey.get(key.replaceAll('-', '_'));
}

/** A border as written by the user: `from` and `to` in the written orientation. */
export interface BorderRef {
  readonly from: string;
  readonly to: string;
  /** Key of the stored orientation, `A->B` with A sorting first. */
  readonly key: string;
  /** true when the written orientation is the stored one. */
  readonly storedOrientation: boolean;
}

/**
 * Resolves zone parameters to short codes (deduplicated, in the order given).
 * @throws InputError on `param` for an unknown zone.
 */
export function resolveZones(values: readonly string[], param = 'zone'): string[] {
  const unknown = values.filter((v) => !findZone(v));
  if (unknown.length) {
    throw InputError.of(param, `Unknown bidding zone: ${unknown.join(', ')}`, 'value_error', unknown);
  }
  return [...new Set(values.map((v) => findZone(v)!.code))];
}

/**
 * Parses border filters written `A->B` (zones by code or EIC).
 * @throws InputError on `param` for a bad form, an unknown zone or a pair that is not a border.
 */
export function resolveBorders(values: readonly string[], param = 'border'): BorderRef[] {
  return values.map((raw) => {
    const parts = raw.split('->');
    if (parts.length !== 2 || parts.some((p) => p.trim() === '')) {
      throw InputError.of(param, `Invalid border '${raw}': expected ZONE_FROM->ZONE_TO`, 'value_error', raw);
    }
    const zones = parts.map((p) => findZone(p));
    const unknown = parts.filter((_, i) => !zones[i]);
    if (unknown.length) throw InputError.of(param, `Unknown bidding zone: ${unknown.join(', ')}`, 'value_error', raw);
    const [from, to] = zones.map((z) => z!.code) as [string, string];
    const [a, b] = from < to ? [from, to] : [to, from];
    const key = `${a}->${b}`;
    if (from === to || !borderKeys.has(key)) {
      throw InputError.of(param, `${from} and ${to} do not share a border`, 'value_error', raw);
    }
    return { from, to, key, storedOrientation: from === a };
  });
}

/** Neighbouring zone codes of a zone, sorted. */
export function neighboursOf(code: string): string[] {
  return BORDERS.flatMap(([a, b]) => (a === code ? [b] : b === code ? [a] : [])).sort();
}
