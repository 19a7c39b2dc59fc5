import { describe, expect, it } from 'vitest';
import { DATA_CATALOGUE } from '../../src/domain/catalogue.js';
import { ZONES as CURRENT_ZONES } from '../../src/domain/catalogue-data.js';
import { closestCodes, didYouMean, editDistance } from '../../src/domain/suggest.js';

/** The current zones: the catalogue suggests among them first. */
const codes = CURRENT_ZONES.map((z) => z.code);

describe('closest zone codes', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('FRR', 'FR')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'DE')).toBe(2);
  });
  it('suggests the codes a text is a prefix of, case-insensitively', () => {
    expect(closestCodes('DE', codes)).toEqual(['DE_LU']);
    expect(closestCodes('de_l', codes)).toEqual(['DE_LU']);
    expect(closestCodes('dk', codes)).toEqual(['DK_1', 'DK_2']);
  });
  it('gives at most three suggestions', () => {
    expect(closestCodes('NO', codes)).toEqual(['NO_1', 'NO_2', 'NO_3']);
  });
  it('falls back to codes a small edit away, nearest first', () => {
    expect(closestCodes('FRR', codes)).toEqual(['FR']);
    expect(closestCodes('IT-NRD', codes)).toEqual(['IT_NORD', 'IT_SARD', 'IT_SUD']);
    expect(closestCodes('SE3', codes)).toEqual(['SE_3']);
  });
  it('suggests nothing when no code is close', () => {
    expect(closestCodes('ATLANTIS', codes)).toEqual([]);
    expect(closestCodes('XX', codes)).toEqual([]);
    expect(closestCodes('', codes)).toEqual([]);
  });
  it('words the suggestion as a question, or says nothing', () => {
    expect(didYouMean([['DE', ['DE_LU']]])).toBe('; did you mean DE_LU?');
    expect(didYouMean([['NO', ['NO_1', 'NO_2', 'NO_3']]])).toBe('; did you mean NO_1, NO_2 or NO_3?');
    expect(
      didYouMean([
        ['DE', ['DE_LU']],
        ['XX', []],
        ['DK', ['DK_1', 'DK_2']],
      ]),
    ).toBe('; did you mean DE_LU for DE, DK_1 or DK_2 for DK?');
    expect(didYouMean([['XX', []]])).toBe('');
  });
  it('suggests a zone that ended only when no current one is close', () => {
    expect(DATA_CATALOGUE.suggestZones('DE')).toEqual(['DE_LU']);
    expect(DATA_CATALOGUE.suggestZones('DE_AT')).toEqual(['DE_AT_LU']);
    expect(DATA_CATALOGUE.suggestZones('IT_ROS')).toEqual(['IT_ROSN']);
  });
  it('puts the suggestion into the unknown-zone error of the catalogue', () => {
    expect(() => DATA_CATALOGUE.resolveZones(['DE'])).toThrow('Unknown bidding zone: DE; did you mean DE_LU?');
    expect(() => DATA_CATALOGUE.resolveBorders(['DE_LU->FRR'])).toThrow('Unknown bidding zone: FRR; did you mean FR?');
    expect(() => DATA_CATALOGUE.resolveZones(['ATLANTIS'])).toThrow(
      /^zones: Unknown bidding zone: ATLANTIS \(got \["ATLANTIS"\]\)$/,
    );
  });
});
