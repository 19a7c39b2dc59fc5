/**
 * The demo data set across the DE-AT-LU split (2018-10-01 Berlin = 2018-09-30T22:00Z): DE_AT_LU and
 * its borders before it, DE_LU, AT and theirs from it, built from the same coupled market.
 */
import { describe, expect, it } from 'vitest';
import { BORDERS, Catalogue, ZONES } from '../../src/domain/catalogue.js';
import { HISTORICAL_BORDERS, HISTORICAL_ZONES } from '../../src/domain/catalogue-history.js';
import { HOUR_MS } from '../../src/demo/calendar.js';
import { type DemoDataSet, generateDemo } from '../../src/demo/generate.js';
import { demoBorderHourRows, demoOutageRows, demoPriceRows, monthSlices } from '../../src/demo/rows.js';

const SPLIT = Date.parse('2018-09-30T22:00:00Z');
/** Two months: September and October 2018 (flows up to 2018-11-01). */
const generate = (): DemoDataSet =>
  generateDemo({ now: new Date('2018-11-01T00:00:00Z'), from: new Date('2018-09-01T00:00:00Z') });

/** A stored catalogue with the historical zones and borders, ids in list order. */
function storedCatalogue() {
  const zones = [...ZONES, ...HISTORICAL_ZONES].map((z, i) => ({ ...z, id: i + 1 }));
  const id = new Map(zones.map((z) => [z.code, z.id]));
  const borders = [...BORDERS, ...HISTORICAL_BORDERS].map(([a, b], i) => ({
    a,
    b,
    key: `${a}->${b}`,
    id: i + 1,
    zoneAId: id.get(a) as number,
    zoneBId: id.get(b) as number,
  }));
  return new Catalogue(zones, borders);
}

describe('demo data across the DE-AT-LU split', () => {
  const data = generate();
  const split = (SPLIT - data.range.start) / HOUR_MS;
  const catalogue = storedCatalogue();
  const zi = (code: string) => data.zones.indexOf(code);
  const bi = (key: string) => data.borders.findIndex((b) => `${b.a}->${b.b}` === key);
  const flows = (key: string) => data.flows.find((f) => f.border === bi(key))!;

  it('adds DE_AT_LU and its 11 borders to the 30 zones and 59 borders, each valid on its side of the split', () => {
    expect(split).toBe(29 * 24 + 22);
    expect(data.zones).toHaveLength(31);
    expect(data.zones.at(-1)).toBe('DE_AT_LU');
    expect(data.borders).toHaveLength(70);
    expect(data.borders.slice(59).map((b) => `${b.a}->${b.b}`)).toEqual(
      HISTORICAL_BORDERS.filter(([a, b]) => a === 'DE_AT_LU' || b === 'DE_AT_LU').map(([a, b]) => `${a}->${b}`),
    );
    expect(data.valid.zones[zi('DE_AT_LU')]).toEqual({ from: 0, to: split });
    expect(data.valid.zones[zi('DE_LU')]).toEqual({ from: split, to: data.hours });
    expect(data.valid.zones[zi('AT')]).toEqual({ from: split, to: data.hours });
    expect(data.valid.zones[zi('FR')]).toEqual({ from: 0, to: data.hours });
    expect(data.valid.borders[bi('CH->DE_AT_LU')]).toEqual({ from: 0, to: split });
    expect(data.valid.borders[bi('AT->DE_LU')]).toEqual({ from: split, to: data.hours });
    expect(data.valid.borders[bi('DE_LU->FR')]).toEqual({ from: split, to: data.hours });
  });

  it('gives DE_LU and AT one price before the split (one bidding zone), which DE_AT_LU takes', () => {
    const [de, at, deAtLu] = [data.prices[zi('DE_LU')]!, data.prices[zi('AT')]!, data.prices[zi('DE_AT_LU')]!];
    const first = data.grid.hourFirst[split] as number;
    let same = 0;
    for (let i = 0; i < first; i++) {
      expect(deAtLu.price[i]).toBe(de.price[i]);
      if (!de.interpolated[i] && !at.interpolated[i]) {
        expect(at.price[i]).toBe(de.price[i]);
        same++;
      }
    }
    expect(same).toBeGreaterThan(first - 12); // all but the few gap-filled hours
    let split_ = 0;
    for (let i = first; i < de.price.length; i++) if (de.price[i] !== at.price[i]) split_++;
    expect(split_).toBeGreaterThan(0); // from the split on, AT-DE_LU congests at times
  });

  it('sums the borders of DE_LU and AT with a neighbour into the border of DE_AT_LU, in its orientation', () => {
    const [ch, chDe, atCh] = [flows('CH->DE_AT_LU'), flows('CH->DE_LU'), flows('AT->CH')];
    const fr = flows('DE_AT_LU->FR');
    const deFr = flows('DE_LU->FR');
    const tenth = (x: number) => Math.round(x * 10) / 10 + 0;
    for (const k of [0, 100, split - 1]) {
      expect(ch.scheduledAb[k]).toBe(tenth(chDe.scheduledAb[k]! + atCh.scheduledBa[k]!)); // CH -> DE and CH -> AT
      expect(ch.physicalBa[k]).toBe(tenth(chDe.physicalBa[k]! + atCh.physicalAb[k]!));
      expect(ch.ntcAb[k]).toBe(chDe.ntcAb[k]! + atCh.ntcBa[k]!);
      expect(fr.physicalAb[k]).toBe(deFr.physicalAb[k]);
      expect(fr.scheduledBa[k]).toBe(deFr.scheduledBa[k]);
    }
    expect(ch.classes).toHaveLength(split);
  });

  it('loads rows for each zone and border on its side of the split only', () => {
    const zoneCode = new Map(catalogue.zones.map((z) => [z.id, z.code]));
    const borderKey = new Map(catalogue.borders.map((b) => [b.id, b.key]));
    const prices = monthSlices(data).flatMap((slice) => demoPriceRows(data, catalogue, slice));
    const hours = monthSlices(data).flatMap((slice) => demoBorderHourRows(data, catalogue, slice));
    const priceTs = (code: string) => prices.filter((r) => zoneCode.get(r.zoneId) === code).map((r) => r.ts.getTime());
    const hourTs = (key: string) => hours.filter((r) => borderKey.get(r.borderId) === key).map((r) => r.ts.getTime());
    expect(priceTs('DE_AT_LU')).toHaveLength(split);
    expect(Math.max(...priceTs('DE_AT_LU'))).toBe(SPLIT - HOUR_MS);
    expect(Math.min(...priceTs('DE_LU'))).toBe(SPLIT);
    expect(Math.min(...priceTs('AT'))).toBe(SPLIT);
    expect(priceTs('FR')).toHaveLength(data.hours);
    expect(hourTs('DE_AT_LU->FR')).toHaveLength(split);
    expect(Math.max(...hourTs('DE_AT_LU->FR'))).toBe(SPLIT - HOUR_MS);
    expect(Math.min(...hourTs('AT->DE_LU'))).toBe(SPLIT);
    expect(Math.min(...hourTs('DE_LU->FR'))).toBe(SPLIT);
    expect(hourTs('BE->FR')).toHaveLength(data.hours);
    // 29 zones before the split (DE_AT_LU for DE_LU and AT), 30 after; 59 - 16 + 11 = 54 borders before, 59 after.
    expect(prices).toHaveLength(29 * split + 30 * (data.hours - split));
    expect(hours).toHaveLength(54 * split + 59 * (data.hours - split));
    for (const o of demoOutageRows(data, catalogue)) {
      const key = borderKey.get(o.borderId) as string;
      if (/(^|>)(AT|DE_LU)(-|$)/.test(key)) expect(o.startsAt.getTime()).toBeGreaterThanOrEqual(SPLIT);
    }
  });

  it('is deterministic', () => {
    const again = generate();
    expect(again.flows.map((f) => Array.from(f.physicalAb))).toEqual(data.flows.map((f) => Array.from(f.physicalAb)));
    expect(again.prices.map((z) => Array.from(z.price))).toEqual(data.prices.map((z) => Array.from(z.price)));
  });
});

describe('demo data after the split', () => {
  it('holds no zone or border of the past', () => {
    const data = generateDemo({ now: new Date('2019-02-01T00:00:00Z'), from: new Date('2018-10-01T00:00:00Z') });
    expect(data.zones).toHaveLength(30);
    expect(data.borders).toHaveLength(59);
    expect(data.valid.zones.every((s) => s.from === 0 && s.to === data.hours)).toBe(true);
  });
});
