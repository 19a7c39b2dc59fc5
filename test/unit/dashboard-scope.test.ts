import { describe, expect, it } from 'vitest';
import { catalogueOf } from '../../src/dashboard/catalogue.js';
import { dateInputFallback, tomorrowScope } from '../../src/dashboard/scope.js';

const at = (iso: string) => Date.parse(iso);

describe("the selection's range", () => {
  it('starts empty custom dates from the last 7 days through today, and allows up to tomorrow', () => {
    expect(dateInputFallback(null, at('2026-11-29T10:00:00Z'))).toEqual({
      from: '2026-11-23',
      to: '2026-11-29',
      max: '2026-11-30',
    });
  });

  it('starts empty custom dates from the range on screen, its last day inclusive', () => {
    const shown = { from: at('2026-11-01T00:00:00Z'), to: at('2026-11-08T00:00:00Z') };
    expect(dateInputFallback(shown, at('2026-11-29T10:00:00Z'))).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-07',
    });
  });

  it("takes tomorrow as the day after the market's today (CET/CEST), not UTC's", () => {
    expect(tomorrowScope(at('2026-11-29T23:30:00Z'))).toEqual({
      range: { from: at('2026-12-01T00:00:00Z'), to: at('2026-12-02T00:00:00Z') },
      tz: 'market',
    });
  });
});

describe('the catalogue the page starts from', () => {
  const coverage = (physical: boolean, scheduled: boolean) => ({
    physicalFlows: physical ? { datetimeTo: '2026-11-29T00:00:00Z' } : null,
    scheduledFlows: scheduled ? { datetimeTo: '2026-11-29T00:00:00Z' } : null,
  });
  const border = (key: string, validTo: string | null, flows: [boolean, boolean]) => ({
    key,
    validFrom: null,
    validTo,
    zoneA: { code: key.split('->')[0]! },
    zoneB: { code: key.split('->')[1]! },
    coverage: coverage(...flows),
  });

  it('lists only zones and borders in force, a border with flows when either kind is stored', () => {
    const catalogue = catalogueOf({
      zones: [
        {
          code: 'DE_LU',
          name: 'Germany-Luxembourg',
          validFrom: '2018-09-30T22:00:00Z',
          validTo: null,
          predecessors: [],
        },
        {
          code: 'DE_AT_LU',
          name: 'Germany-Austria-Luxembourg',
          validFrom: null,
          validTo: '2018-09-30T22:00:00Z',
          predecessors: [],
        },
      ],
      borders: [
        border('DE_LU->FR', null, [false, true]),
        border('FR->ES', null, [false, false]),
        border('DE_AT_LU->FR', '2018-09-30T22:00:00Z', [true, true]),
      ],
    });
    expect(catalogue.zones.map((z) => z.code)).toEqual(['DE_LU']);
    expect(catalogue.borders.map((b) => [b.code, b.hasFlows])).toEqual([
      ['DE_LU->FR', true],
      ['FR->ES', false],
    ]);
  });
});
