/**
 * The zone catalogue (src/domain/catalogue-data.ts) against independent published lists in
 * test/fixtures/entsoe: entsoe-py's area list (EIC, meaning, time zone) and neighbour list, and the
 * ENTSO-E transmission pairs as downloaded by the R package entsoeapi. Where the catalogue
 * legitimately differs, the difference is listed below with its reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BORDERS, ZONES } from '../../src/domain/catalogue-data.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/entsoe/', import.meta.url));

/** Rows of a CSV with a header line; fields may be double-quoted (commas inside). */
function csv(name: string): string[][] {
  const lines = readFileSync(FIXTURES + name, 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1);
  return lines.map((line) =>
    [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')),
  );
}

/** Rows of a tab-separated file with a header line. */
function tsv(name: string): string[][] {
  return readFileSync(FIXTURES + name, 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split('\t'));
}

const AREAS = csv('eic_areas_entsoe-py.csv').map(([key, eic, meaning, timeZone]) => ({
  key: key!,
  eic: eic!,
  meaning: meaning!,
  timeZone: timeZone!,
}));
const NEIGHBOURS = csv('bidding_zone_neighbours_entsoe-py.csv').map(
  ([, , fromEic, toEic]) => [fromEic!, toEic!] as const,
);
const PAIRS = tsv('transmission_pairs_entsoeapi.tsv').map((r) => ({
  out: r[0]!,
  outType: r[1]!,
  outCode: r[3]!,
  in: r[4]!,
  inType: r[5]!,
  inCode: r[7]!,
}));

const EIC = new Map(ZONES.map((z) => [z.code, z.eic]));
const CODE = new Map(ZONES.map((z) => [z.eic, z.code]));
const pairKey = (a: string, b: string) => [a, b].sort().join('|');

/**
 * Zones whose area meaning does not name them the way the catalogue does, and why. The others must
 * name the zone, as whole words, by its catalogue name, its label in parentheses (DK1, SE3...), a
 * two-part code written with a hyphen (DE-LU) or, for Italian market zones, ENTSO-E's "IT-" form
 * (IT-Centre-North).
 */
const MEANING_EXCEPTIONS: Record<string, string> = {
  BA: 'ENTSO-E writes "Bosnia Herzegovina"; the catalogue uses the country\'s official English name with "and"',
  CZ: 'ENTSO-E still writes "Czech Republic"; the catalogue uses the short name Czechia',
  GB: 'ENTSO-E names the TSO ("National Grid BZ"), not the country',
  MK: 'ENTSO-E still writes "Former Yugoslav Republic of Macedonia" (renamed North Macedonia in 2019)',
};

/** Areas of ENTSO-E bidding-zone transmission pairs that are not catalogue zones, and why. */
const AREAS_NOT_SERVED: Record<string, string> = {
  '10Y1001A1001A893':
    'IT_SACO_DC: virtual zone of the SACOI DC link (Sardinia-Corsica-Italy), no market zone of its own',
  '10Y1001A1001A77A': 'IT_ROSN: Rossano, a former Italian production-pole zone, not a current bidding zone',
  '10Y1001A1001A51S': 'BY: Belarus, outside the European day-ahead market coupling (no prices served)',
  '10Y1001A1001A50U': 'RU_KGD: Kaliningrad, outside the European day-ahead market coupling (no prices served)',
};

function labels(z: (typeof ZONES)[number]): string[] {
  const base = z.name.replace(/\s*\(.*\)$/, '');
  const inParentheses = /\(([^)]+)\)/.exec(z.name)?.[1];
  const hyphenated = z.code.includes('_') ? z.code.replace(/_/g, '-') : undefined;
  return [base, inParentheses, hyphenated, base.replace(/^Italy /, 'IT-')].filter((l): l is string => Boolean(l));
}

/** Whether `text` holds `label` as whole words (case-insensitive): "BA" is not in "MBA". */
function mentions(text: string, label: string): boolean {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w-])${escaped}($|[^\\w-])`, 'i').test(text);
}

describe('zone catalogue against entsoe-py areas', () => {
  it.each(ZONES.map((z) => [z.code, z] as const))(
    '%s: its EIC is a bidding zone of the same name and time zone',
    (code, z) => {
      const areas = AREAS.filter((a) => a.eic === z.eic);
      expect(areas.length).toBeGreaterThan(0);
      const zone = areas.find((a) => /\bBZ\b/.test(a.meaning));
      expect(zone, `no bidding-zone meaning among ${areas.map((a) => a.meaning).join(' | ')}`).toBeDefined();
      expect(zone!.timeZone).toBe(z.timeZone);
      const named = labels(z).some((l) => mentions(zone!.meaning, l));
      expect({ code, named, meaning: zone!.meaning }).toEqual({
        code,
        named: !(code in MEANING_EXCEPTIONS),
        meaning: zone!.meaning,
      });
    },
  );

  it('lists no meaning exception for a zone it does not hold', () => {
    expect(Object.keys(MEANING_EXCEPTIONS).filter((c) => !EIC.has(c))).toEqual([]);
  });
});

describe('borders against entsoe-py neighbours and ENTSO-E transmission pairs', () => {
  const neighbours = new Set(NEIGHBOURS.map(([a, b]) => pairKey(a, b)));
  const pairs = new Set(PAIRS.map((p) => pairKey(p.out, p.in)));
  const borders = new Set(BORDERS.map(([a, b]) => pairKey(EIC.get(a)!, EIC.get(b)!)));

  it('finds every border of the catalogue in the neighbour list or the transmission pairs', () => {
    const unknown = BORDERS.filter(([a, b]) => {
      const k = pairKey(EIC.get(a)!, EIC.get(b)!);
      return !neighbours.has(k) && !pairs.has(k);
    });
    expect(unknown).toEqual([]);
  });

  it('holds every entsoe-py neighbour pair of two catalogue zones as a border', () => {
    const missing = NEIGHBOURS.filter(([a, b]) => CODE.has(a) && CODE.has(b) && !borders.has(pairKey(a, b)));
    expect(missing.map(([a, b]) => `${CODE.get(a)}->${CODE.get(b)}`)).toEqual([]);
  });

  it('holds every bidding-zone transmission pair as a border, or names why its area is not served', () => {
    const bzn = PAIRS.filter((p) => p.outType === 'BZN' && p.inType === 'BZN');
    expect(bzn.length).toBeGreaterThan(50);
    const unexplained = bzn.filter((p) => {
      if (CODE.has(p.out) && CODE.has(p.in)) return !borders.has(pairKey(p.out, p.in));
      return ![p.out, p.in].some((eic) => !CODE.has(eic) && eic in AREAS_NOT_SERVED);
    });
    expect(unexplained.map((p) => `${p.outCode}->${p.inCode}`)).toEqual([]);
    const used = new Set(bzn.flatMap((p) => [p.out, p.in]));
    expect(Object.keys(AREAS_NOT_SERVED).filter((eic) => !used.has(eic))).toEqual([]);
  });
});
