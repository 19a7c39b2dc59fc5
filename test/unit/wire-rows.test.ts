import { describe, expect, it } from 'vitest';
import { wireRowOf } from '../../src/contract/json.js';
import { rowJsonOf } from '../support/row-json.js';
import { restFields, type RowContract } from '../../src/contract/fields.js';
import * as catalogue from '../../src/contract/rows/catalogue.js';
import * as flowAggregates from '../../src/contract/rows/flow-aggregates.js';
import * as flows from '../../src/contract/rows/flows.js';
import * as prices from '../../src/contract/rows/prices.js';
import * as zoneAggregates from '../../src/contract/rows/zone-aggregates.js';
import type { PriceRecord } from '../../src/domain/records.js';

const CONTRACTS = Object.values({
  ...catalogue,
  ...flowAggregates,
  ...flows,
  ...prices,
  ...zoneAggregates,
}) as RowContract<unknown>[];
/** A row whose every property is null: each field writes null. */
const nullRow = new Proxy({}, { get: () => null });

describe('wire rows of every row contract', () => {
  it('covers the fourteen row contracts', () => {
    expect(CONTRACTS).toHaveLength(14);
  });

  it.each(CONTRACTS.map((c) => [c.rest, c] as const))(
    '%s: the REST field names in contract order, nulls written as null',
    (_, contract) => {
      const row = wireRowOf(contract)(nullRow);
      expect(Object.keys(row)).toEqual(restFields(contract).map((f) => f.rest));
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(JSON.stringify(row)).toBe(rowJsonOf(contract)(nullRow));
    },
  );

  it('writes price rows as the field-by-field writer does, in UTC and in a time zone', () => {
    const rows: PriceRecord[] = [
      { datetime: new Date('2025-03-30T00:45:00Z'), zone: 'DE_LU', price: 83.123449, interpolated: false },
      { datetime: new Date('2025-03-30T01:00:00Z'), zone: 'DE_LU', price: -0.00004, interpolated: true },
      { datetime: new Date('2025-12-31T23:00:00Z'), zone: 'FR', price: 119.674449, interpolated: false },
    ];
    const berlin = () => 'Europe/Berlin';
    for (const zoneOf of [undefined, berlin]) {
      const [wire, json] = [wireRowOf(prices.PRICE_ROW, zoneOf), rowJsonOf(prices.PRICE_ROW, zoneOf)];
      for (const r of rows) expect(JSON.stringify(wire(r))).toBe(json(r));
    }
    expect(wireRowOf(prices.PRICE_ROW, berlin)(rows[2]!)).toEqual({
      datetime: '2026-01-01T00:00:00+01:00',
      bidding_zone: 'FR',
      price_mwh: 119.6744,
      interpolated: false,
      year: 2026,
    });
  });

  it('refuses a contract with a field named __proto__, which an object literal would take for the prototype', () => {
    const bad: RowContract<{ x: string }> = {
      rest: 'Bad',
      graphql: 'Bad',
      description: '',
      fields: [{ kind: 'string', rest: '__proto__', description: '', get: (r) => r.x, value: (r) => r.x }],
    };
    expect(() => wireRowOf(bad)).toThrow(/__proto__/);
  });
});
