import { Field, Float64, Int32, Schema, Table, TimestampMillisecond, Utf8, Bool } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { utcYears } from '../../src/domain/columns.js';
import { recordBatchOfColumns } from '../../src/rest/arrow-columns.js';

describe('column batches', () => {
  it('gives each instant its UTC year across New Year and far from 1970', () => {
    const ms = [
      Date.UTC(2025, 11, 31, 23, 45),
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 0, 1, 0, 15),
      Date.UTC(2024, 1, 29, 12),
      Date.UTC(1969, 11, 31, 23, 59),
      Date.UTC(2100, 0, 1),
    ];
    expect([...utcYears(Float64Array.from(ms))]).toEqual([2025, 2026, 2026, 2024, 1969, 2100]);
  });

  it('writes columns as an Arrow record batch apache-arrow reads back value for value', () => {
    const schema = new Schema([
      new Field('datetime', new TimestampMillisecond('UTC'), false),
      new Field('zone', new Utf8(), false),
      new Field('price', new Float64(), false),
      new Field('flag', new Bool(), false),
      new Field('year', new Int32(), false),
      new Field('time_zone', new Utf8(), false),
    ]);
    const ms = [Date.UTC(2025, 9, 26, 1), -1, 2 ** 32 + 5, Date.UTC(1900, 0, 1), 0, 1e12 + 1, 7, 8, 9];
    const zones = ['DE_LU', 'FR', 'IT_NORD', '', 'ÅX', 'A', 'B', 'C', 'D'];
    const encoded = zones.map((z) => new TextEncoder().encode(z));
    const offsets = new Int32Array(zones.length + 1);
    encoded.forEach((b, i) => {
      offsets[i + 1] = offsets[i]! + b.length;
    });
    const bytes = new Uint8Array(offsets[zones.length]!);
    for (const [i, b] of encoded.entries()) bytes.set(b, offsets[i]!);
    const flags = [1, 0, 1, 1, 0, 0, 0, 0, 1];
    const batch = recordBatchOfColumns(schema, {
      length: ms.length,
      columns: new Map([
        ['datetime', { kind: 'timestamp', ms: Float64Array.from(ms) }],
        ['zone', { kind: 'utf8', offsets, bytes }],
        ['price', { kind: 'float', values: Float64Array.from(ms, (_, i) => i / 3) }],
        ['flag', { kind: 'bool', values: Uint8Array.from(flags) }],
        ['year', { kind: 'int', values: Int32Array.from(ms, (_, i) => 2000 + i) }],
        ['time_zone', { kind: 'constant', value: 'Europe/Berlin' }],
      ]),
    });
    const rows = new Table(batch).toArray().map((r) => r.toJSON());
    expect(rows.map((r) => Number(r.datetime))).toEqual(ms);
    expect(rows.map((r) => r.zone)).toEqual(zones);
    expect(rows.map((r) => r.price)).toEqual(ms.map((_, i) => i / 3));
    expect(rows.map((r) => r.flag)).toEqual(flags.map(Boolean));
    expect(rows.map((r) => r.year)).toEqual(ms.map((_, i) => 2000 + i));
    expect(rows.map((r) => r.time_zone)).toEqual(ms.map(() => 'Europe/Berlin'));
  });

  it('refuses a column of another kind than its field', () => {
    const schema = new Schema([new Field('price', new Float64(), false)]);
    const columns = new Map([['price', { kind: 'int' as const, values: new Int32Array(1) }]]);
    expect(() => recordBatchOfColumns(schema, { length: 1, columns })).toThrow(/column price: int/);
  });
});
