import { describe, expect, it } from 'vitest';
import { BORDERS, findZone, neighboursOf, resolveBorders, resolveZones, ZONES } from '../../src/domain/catalogue.js';
import { InputError } from '../../src/errors.js';

describe('zone catalogue', () => {
  it('holds real EIC codes and time zones', () => {
    expect(findZone('DE_LU')).toMatchObject({ eic: '10Y1001A1001A82H', timeZone: 'Europe/Berlin' });
    expect(findZone('10YFR-RTE------C')?.code).toBe('FR');
    expect(ZONES.length).toBeGreaterThanOrEqual(40);
  });
  it('accepts codes and EICs case-insensitively, and a hyphen for the underscore', () => {
    expect(resolveZones(['de_lu', '10yfr-rte------c', 'DE-LU'])).toEqual(['DE_LU', 'FR']);
  });
  it('rejects unknown zones naming them', () => {
    expect(() => resolveZones(['FR', 'XX'])).toThrow(/Unknown bidding zone: XX/);
  });
  it('stores every border once with A sorting first', () => {
    for (const [a, b] of BORDERS) expect(a < b).toBe(true);
    expect(new Set(BORDERS.map((b) => b.join())).size).toBe(BORDERS.length);
    expect(neighboursOf('ES')).toEqual(['FR', 'PT']);
  });
});

describe('border filters', () => {
  it('keeps the written orientation and finds the stored border', () => {
    expect(resolveBorders(['FR->DE_LU'])).toEqual([{ from: 'FR', to: 'DE_LU', key: 'DE_LU->FR', storedOrientation: false }]);
    expect(resolveBorders(['de_lu->fr'])[0]?.storedOrientation).toBe(true);
  });
  it('rejects bad forms, unknown zones and non-neighbours on the parameter', () => {
    for (const bad of ['FR', 'FR->', 'FR->FR', 'FR->PL', 'FR->XX', 'A->B->C']) {
      try {
        resolveBorders([bad]);
        expect.unreachable(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(InputError);
        expect((err as InputError).issues[0]?.param).toBe('border');
      }
    }
  });
});
