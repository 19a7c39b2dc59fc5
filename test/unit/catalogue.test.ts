import { describe, expect, it } from 'vitest';
import { BORDERS, Catalogue, DATA_CATALOGUE, ZONES } from '../../src/domain/catalogue.js';
import { InputError } from '../../src/errors.js';

const catalogue = DATA_CATALOGUE;

describe('zone catalogue', () => {
  it('holds real EIC codes and time zones', () => {
    expect(catalogue.findZone('DE_LU')).toMatchObject({ eic: '10Y1001A1001A82H', timeZone: 'Europe/Berlin' });
    expect(catalogue.findZone('10YFR-RTE------C')?.code).toBe('FR');
    expect(ZONES.length).toBeGreaterThanOrEqual(40);
  });
  it('accepts codes and EICs case-insensitively, and a hyphen for the underscore', () => {
    expect(catalogue.resolveZones(['de_lu', '10yfr-rte------c', 'DE-LU'])).toEqual(['DE_LU', 'FR']);
  });
  it('rejects unknown zones naming them', () => {
    expect(() => catalogue.resolveZones(['FR', 'XX'])).toThrow(/Unknown bidding zone: XX/);
  });
  it('stores every border once with A sorting first', () => {
    for (const [a, b] of BORDERS) expect(a < b).toBe(true);
    expect(new Set(BORDERS.map((b) => b.join())).size).toBe(BORDERS.length);
    expect(catalogue.neighboursOf('ES')).toEqual(['FR', 'PT']);
  });
});

describe('border filters', () => {
  it('keeps the written orientation and finds the stored border', () => {
    expect(catalogue.resolveBorders(['FR->DE_LU'])).toEqual([
      { from: 'FR', to: 'DE_LU', key: 'DE_LU->FR', storedOrientation: false },
    ]);
    expect(catalogue.resolveBorders(['de_lu->fr'])[0]?.storedOrientation).toBe(true);
  });
  it('rejects bad forms, unknown zones and non-neighbours on the parameter, named by its declaration (borders)', () => {
    for (const bad of ['FR', 'FR->', 'FR->FR', 'FR->PL', 'FR->XX', 'A->B->C']) {
      try {
        catalogue.resolveBorders([bad]);
        expect.unreachable(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(InputError);
        expect((err as InputError).issues[0]?.param).toBe('borders');
      }
    }
  });
});

describe('stored catalogue', () => {
  const zones = ZONES.map((z, i) => ({ ...z, id: 100 + i }));
  const idOf = new Map(zones.map((z) => [z.code, z.id]));
  const borders = BORDERS.map(([a, b], i) => ({
    id: i + 1,
    a,
    b,
    key: `${a}->${b}`,
    zoneAId: idOf.get(a)!,
    zoneBId: idOf.get(b)!,
  }));
  const stored = new Catalogue(zones, borders);

  it('finds zones with their ids by code and by EIC in any case', () => {
    expect(stored.zone('FR')?.id).toBe(idOf.get('FR'));
    expect(stored.findZone('10yfr-rte------c')?.id).toBe(idOf.get('FR'));
    expect(stored.zone('fr')).toBeUndefined();
  });
  it('finds a border by key or by either pair order, and the borders of a zone', () => {
    const deFr = stored.border('DE_LU->FR');
    expect(deFr).toMatchObject({ a: 'DE_LU', b: 'FR', zoneAId: idOf.get('DE_LU'), zoneBId: idOf.get('FR') });
    expect(stored.borderBetween('FR', 'DE_LU')).toBe(deFr);
    expect(stored.borderBetween('FR', 'FR')).toBeUndefined();
    expect(stored.bordersOf('ES').map((b) => b.key)).toEqual(['ES->FR', 'ES->PT']);
    expect(stored.neighboursOf('ES')).toEqual(['FR', 'PT']);
  });
});
