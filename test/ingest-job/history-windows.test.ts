/**
 * Window planning over the market's history: a zone or border is fetched for the period in which it
 * existed only (src/domain/catalogue-history.ts), windows clipped at the change.
 */
import { describe, expect, it } from 'vitest';
import { type Target, planWindows } from '../../src/ingest/windows.js';

const d = (s: string) => new Date(s);
const spans = (targets: readonly Target[], from: string, to: string) =>
  planWindows(targets, { from: d(from), to: d(to) }, []).map((w) => [
    `${w.item} ${w.areaKey}`,
    w.start.toISOString(),
    w.end.toISOString(),
  ]);

describe('window planning across the DE-AT-LU split (2018-10-01 Berlin = 2018-09-30T22:00Z)', () => {
  it('fetches DE_AT_LU prices before the split only and DE_LU and AT prices from it only', () => {
    const targets: Target[] = ['DE_AT_LU', 'DE_LU', 'AT'].map((areaKey) => ({ item: 'prices', areaKey }));
    expect(spans(targets, '2018-09-29', '2018-10-03')).toEqual([
      ['prices DE_AT_LU', '2018-09-29T00:00:00.000Z', '2018-09-30T22:00:00.000Z'],
      ['prices DE_LU', '2018-09-30T22:00:00.000Z', '2018-10-03T00:00:00.000Z'],
      ['prices AT', '2018-09-30T22:00:00.000Z', '2018-10-03T00:00:00.000Z'],
    ]);
  });

  it('clips on the split and still splits on UTC years', () => {
    expect(spans([{ item: 'prices', areaKey: 'DE_AT_LU' }], '2017-06-01', '2020-01-01')).toEqual([
      ['prices DE_AT_LU', '2017-06-01T00:00:00.000Z', '2018-01-01T00:00:00.000Z'],
      ['prices DE_AT_LU', '2018-01-01T00:00:00.000Z', '2018-09-30T22:00:00.000Z'],
    ]);
    expect(spans([{ item: 'flows', areaKey: 'AT->DE_LU' }], '2017-06-01', '2020-01-01')).toEqual([
      ['flows AT->DE_LU', '2018-09-30T22:00:00.000Z', '2019-01-01T00:00:00.000Z'],
      ['flows AT->DE_LU', '2019-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z'],
    ]);
  });

  it('plans nothing for a zone or border outside its period', () => {
    expect(spans([{ item: 'prices', areaKey: 'DE_AT_LU' }], '2018-10-01', '2019-01-01')).toEqual([]);
    expect(spans([{ item: 'prices', areaKey: 'DE_LU' }], '2018-01-01', '2018-09-30T22:00Z')).toEqual([]);
    expect(spans([{ item: 'flows', areaKey: 'DE_AT_LU->FR' }], '2018-09-30T22:00Z', '2018-10-02')).toEqual([]);
    expect(spans([{ item: 'flows', areaKey: 'AT->DE_LU' }], '2018-09-01', '2018-09-30T22:00Z')).toEqual([]);
  });

  it('clips a historical border on its zone period, a border of a current zone not at all', () => {
    const targets: Target[] = [
      { item: 'flows', areaKey: 'DE_AT_LU->FR' },
      { item: 'flows', areaKey: 'DE_LU->FR' },
      { item: 'flows', areaKey: 'BE->FR' },
    ];
    expect(spans(targets, '2018-09-30', '2018-10-02')).toEqual([
      ['flows DE_AT_LU->FR', '2018-09-30T00:00:00.000Z', '2018-09-30T22:00:00.000Z'],
      ['flows DE_LU->FR', '2018-09-30T22:00:00.000Z', '2018-10-02T00:00:00.000Z'],
      ['flows BE->FR', '2018-09-30T00:00:00.000Z', '2018-10-02T00:00:00.000Z'],
    ]);
  });

  it('widens a range ending inside the split hour to the hour, never across the split', () => {
    expect(
      spans(
        [
          { item: 'prices', areaKey: 'DE_AT_LU' },
          { item: 'prices', areaKey: 'DE_LU' },
        ],
        '2018-09-30T21:30Z',
        '2018-09-30T22:30Z',
      ),
    ).toEqual([
      ['prices DE_AT_LU', '2018-09-30T21:00:00.000Z', '2018-09-30T22:00:00.000Z'],
      ['prices DE_LU', '2018-09-30T22:00:00.000Z', '2018-09-30T23:00:00.000Z'],
    ]);
  });
});

describe('window planning of the other changes', () => {
  it('fetches IE_SEM from I-SEM go-live (2018-10-01 Dublin = 2018-09-30T23:00Z)', () => {
    expect(spans([{ item: 'prices', areaKey: 'IE_SEM' }], '2018-09-01', '2018-10-02')).toEqual([
      ['prices IE_SEM', '2018-09-30T23:00:00.000Z', '2018-10-02T00:00:00.000Z'],
    ]);
  });

  it("fetches Italy's production poles up to 2021-01-01 Rome and IT_CALA from it", () => {
    const targets: Target[] = [
      { item: 'prices', areaKey: 'IT_ROSN' },
      { item: 'prices', areaKey: 'IT_CALA' },
      { item: 'flows', areaKey: 'IT_ROSN->IT_SUD' },
    ];
    expect(spans(targets, '2020-12-31', '2021-01-02')).toEqual([
      ['prices IT_ROSN', '2020-12-31T00:00:00.000Z', '2020-12-31T23:00:00.000Z'],
      ['prices IT_CALA', '2020-12-31T23:00:00.000Z', '2021-01-01T00:00:00.000Z'],
      ['prices IT_CALA', '2021-01-01T00:00:00.000Z', '2021-01-02T00:00:00.000Z'],
      ['flows IT_ROSN->IT_SUD', '2020-12-31T00:00:00.000Z', '2020-12-31T23:00:00.000Z'],
    ]);
  });
});
