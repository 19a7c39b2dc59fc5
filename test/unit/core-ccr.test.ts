import { describe, expect, it } from 'vitest';
import { BORDERS } from '../../src/domain/catalogue-data.js';
import { CORE_FLOW_BASED_FROM_DAY, isCoreBorder } from '../../src/domain/core-ccr.js';

/** The Core CCR's internal borders as ENTSO-E/JAO list them (the 19 between zones of this catalogue). */
const CORE_BORDERS = [
  'AT-CZ',
  'AT-DE_LU',
  'AT-HU',
  'AT-SI',
  'BE-DE_LU',
  'BE-FR',
  'BE-NL',
  'CZ-DE_LU',
  'CZ-PL',
  'CZ-SK',
  'DE_LU-FR',
  'DE_LU-NL',
  'DE_LU-PL',
  'HR-HU',
  'HR-SI',
  'HU-RO',
  'HU-SI',
  'HU-SK',
  'PL-SK',
];

describe('the Core capacity calculation region', () => {
  it('flags exactly the catalogue borders between two Core zones', () => {
    const flagged = BORDERS.filter(([a, b]) => isCoreBorder(a, b)).map(([a, b]) => `${a}-${b}`);
    expect(flagged.sort()).toEqual([...CORE_BORDERS].sort());
  });

  it('leaves borders to the Core region and outside it flagged as NTC borders', () => {
    for (const [a, b] of [
      ['AT', 'CH'],
      ['AT', 'IT_NORD'],
      ['DE_LU', 'DK_1'],
      ['FR', 'ES'],
      ['HU', 'RS'],
      ['RO', 'BG'],
      ['PL', 'LT'],
    ] as const)
      expect(isCoreBorder(a, b), `${a}-${b}`).toBe(false);
    expect(isCoreBorder('FR', 'DE_LU')).toBe(true);
  });

  it('dates flow-based day-ahead coupling from the delivery day after the 2022-06-08 go-live', () => {
    expect(CORE_FLOW_BASED_FROM_DAY).toBe('2022-06-09');
  });
});
