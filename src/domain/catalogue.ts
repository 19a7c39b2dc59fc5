/**
 * The zone and border catalogue in memory: one immutable structure with every lookup the API needs
 * (zone by code, id or EIC, border by key or pair, neighbours, time zones), built once from the
 * stored catalogue at start-up ({@link StoredCatalogue}) or from the source data when no database
 * is at hand yet ({@link DATA_CATALOGUE}: command-line flags, event tags).
 */
import { InputError } from '../errors.js';
import { BORDERS as CURRENT_BORDERS, type CatalogueZone, ZONES as CURRENT_ZONES } from './catalogue-data.js';
import { HISTORICAL_BORDERS, HISTORICAL_ZONES } from './catalogue-history.js';
import { closestCodes, didYouMean } from './suggest.js';
import { zonePeriod } from './validity.js';

export type { CatalogueZone };

/**
 * Every zone the API serves: the current ones (catalogue-data.ts, generated), then those that ended
 * (catalogue-history.ts), each valid over its own period (validity.ts). Stored in this order, so a
 * fresh database gives the current zones the ids they had before the history was added.
 */
export const ZONES: readonly CatalogueZone[] = [...CURRENT_ZONES, ...HISTORICAL_ZONES];

/** Every border, current then historical, as [A, B] with A's code sorting first (stored orientation). */
export const BORDERS: readonly (readonly [string, string])[] = [...CURRENT_BORDERS, ...HISTORICAL_BORDERS];

/** A border in stored orientation: A's code sorts before B's. */
export interface CatalogueBorder {
  readonly a: string;
  readonly b: string;
  /** `A->B` in stored orientation. */
  readonly key: string;
}

/** A stored zone. */
export interface ZoneRecord extends CatalogueZone {
  readonly id: number;
}

/** A stored border. */
export interface BorderRecord extends CatalogueBorder {
  readonly id: number;
  readonly zoneAId: number;
  readonly zoneBId: number;
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

/** The key of a border in stored orientation, e.g. `DE_LU->FR`. */
export function borderKey(a: string, b: string): string {
  return a < b ? `${a}->${b}` : `${b}->${a}`;
}

function group<K, V>(entries: Iterable<readonly [K, V]>): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const [k, v] of entries) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}

/** Zones and borders, each in the order given, with their lookups. Immutable. */
export class Catalogue<Z extends CatalogueZone = CatalogueZone, B extends CatalogueBorder = CatalogueBorder> {
  readonly zones: readonly Z[];
  readonly borders: readonly B[];
  private readonly byCode: ReadonlyMap<string, Z>;
  /** Upper-cased short code and EIC → zone. */
  private readonly byName: ReadonlyMap<string, Z>;
  private readonly byKey: ReadonlyMap<string, B>;
  private readonly byZone: ReadonlyMap<string, readonly B[]>;

  constructor(zones: readonly Z[], borders: readonly B[]) {
    this.zones = Object.freeze([...zones]);
    this.borders = Object.freeze([...borders]);
    this.byCode = new Map(this.zones.map((z) => [z.code, z]));
    this.byName = new Map(
      this.zones.flatMap(
        (z) =>
          [
            [z.code.toUpperCase(), z],
            [z.eic.toUpperCase(), z],
          ] as const,
      ),
    );
    this.byKey = new Map(this.borders.map((b) => [b.key, b]));
    this.byZone = group(
      this.borders.flatMap(
        (b) =>
          [
            [b.a, b],
            [b.b, b],
          ] as const,
      ),
    );
  }

  /** The zone of a short code, exactly as stored. */
  zone(code: string): Z | undefined {
    return this.byCode.get(code);
  }

  /** Finds a zone by short code or EIC, case-insensitively; `DE-LU` is read as `DE_LU`. */
  findZone(text: string): Z | undefined {
    const key = text.trim().toUpperCase();
    return this.byName.get(key) ?? this.byName.get(key.replaceAll('-', '_'));
  }

  /** The border of a key `A->B` in stored orientation. */
  border(key: string): B | undefined {
    return this.byKey.get(key);
  }

  /** The border between two zone codes, whichever order they come in. */
  borderBetween(a: string, b: string): B | undefined {
    return a === b ? undefined : this.byKey.get(borderKey(a, b));
  }

  /** Borders touching a zone, in catalogue order. */
  bordersOf(code: string): readonly B[] {
    return this.byZone.get(code) ?? [];
  }

  /** Neighbouring zone codes of a zone, sorted. */
  neighboursOf(code: string): string[] {
    return this.bordersOf(code)
      .map((b) => (b.a === code ? b.b : b.a))
      .sort();
  }

  /**
   * Known zone codes close to an unknown text (prefix, then small edit distance), at most 3: current
   * zones first, zones that ended only when the text begins one of them and no current code, or when
   * no current one is close (`DE` → DE_LU, `DE_AT` → DE_AT_LU).
   */
  suggestZones(text: string): string[] {
    const all = this.zones.map((z) => z.code);
    const current = all.filter((c) => zonePeriod(c).to === Infinity);
    const key = text.trim().toUpperCase().replaceAll('-', '_');
    const begins = (codes: readonly string[]) => key !== '' && codes.some((c) => c.startsWith(key));
    const pool = begins(current) || !begins(all) ? current : all;
    const close = closestCodes(text, pool);
    return close.length ? close : closestCodes(text, all);
  }

  /** `Unknown bidding zone: DE; did you mean DE_LU?` (suggestions where some code is close). */
  private unknownZones(unknown: readonly (readonly [string, readonly string[]])[]): string {
    return `Unknown bidding zone: ${unknown.map(([u]) => u).join(', ')}${didYouMean(unknown)}`;
  }

  /**
   * Resolves zone parameters to short codes (deduplicated, in the order given).
   * @throws InputError on `param` (default `zones`, the parameter's declared id) naming every unknown
   * zone, with each one as an entry at its index.
   */
  resolveZones(values: readonly string[], param = 'zones'): string[] {
    const unknown = values.flatMap((v, index) =>
      this.findZone(v) ? [] : [{ index, hint: [v, this.suggestZones(v)] as const }],
    );
    if (unknown.length) {
      const entries = unknown.map(({ index, hint }) => ({ index, msg: this.unknownZones([hint]), input: hint[0] }));
      const msg = this.unknownZones(unknown.map((u) => u.hint));
      throw new InputError([{ param, msg, type: 'value_error', input: entries.map((e) => e.input), entries }]);
    }
    return [...new Set(values.map((v) => this.findZone(v)!.code))];
  }

  /**
   * Parses border filters written `A->B` (zones by code or EIC).
   * @throws InputError on `param` (default `borders`, the declared id) for a bad form, an unknown zone
   * or a pair that is not a border: the first such border, with every one as an entry at its index.
   */
  resolveBorders(values: readonly string[], param = 'borders'): BorderRef[] {
    const read = values.map((raw) => this.readBorder(raw));
    const entries = read.flatMap((r, index) =>
      typeof r === 'string' ? [{ index, msg: r, input: values[index] }] : [],
    );
    const first = entries[0];
    if (first) throw new InputError([{ param, msg: first.msg, type: 'value_error', input: first.input, entries }]);
    return read as BorderRef[];
  }

  /** The border written `raw`, or why it is none. */
  private readBorder(raw: string): BorderRef | string {
    const parts = raw.split('->');
    if (parts.length !== 2 || parts.some((p) => p.trim() === '')) {
      return `Invalid border '${raw}': expected ZONE_FROM->ZONE_TO`;
    }
    const zones = parts.map((p) => this.findZone(p));
    const unknown = parts.filter((_, i) => !zones[i]);
    if (unknown.length) return this.unknownZones(unknown.map((u) => [u, this.suggestZones(u)] as const));
    const [from, to] = zones.map((z) => z!.code) as [string, string];
    const border = this.borderBetween(from, to);
    if (!border) return `${from} and ${to} do not share a border`;
    return { from, to, key: border.key, storedOrientation: from === border.a };
  }
}

/** The catalogue as the database holds it: zones and borders with their ids. */
export type StoredCatalogue = Catalogue<ZoneRecord, BorderRecord>;

/** The catalogue of the source data (no ids), for checks that run before a database is open. */
export const DATA_CATALOGUE: Catalogue = new Catalogue(
  ZONES,
  BORDERS.map(([a, b]) => ({ a, b, key: `${a}->${b}` })),
);
