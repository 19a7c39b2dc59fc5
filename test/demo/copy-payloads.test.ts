import { describe, expect, it } from 'vitest';
import { BORDERS, Catalogue, ZONES } from '../../src/domain/catalogue.js';
import { demoBorderHourPayloads, demoPricePayloads } from '../../src/demo/copy-payloads.js';
import { generateDemo } from '../../src/demo/generate.js';
import { monthSlices } from '../../src/demo/rows.js';
import { demoBorderHourRows, demoPriceRows } from '../../src/demo/rows.js';
import { COPY_CHUNK_ROWS } from '../../src/repositories/ingest/bulk.js';
import { appendBorderHours, appendPrices } from '../../src/repositories/ingest/load.js';
import type { Sql } from '../../src/db/executor.js';

/** A connection that records the COPY payloads sent to it and knows every referenced id. */
function recordingSql(): { sql: Sql; copies: { table: string; columns: readonly string[]; payload: Uint8Array }[] } {
  const copies: { table: string; columns: readonly string[]; payload: Uint8Array }[] = [];
  const sql: Sql = {
    kind: 'pglite',
    async query<T>(text: string, params: unknown[] = []) {
      if (text.includes('FOR KEY SHARE')) return (params[0] as number[]).map((id) => ({ id })) as T[];
      return [{ su: false }] as T[];
    },
    async exec() {},
    async copyIn(table, columns, payload) {
      copies.push({ table, columns, payload: payload.slice() });
    },
  };
  return { sql, copies };
}

describe('demo COPY payloads from the generated arrays', () => {
  const data = generateDemo({ now: new Date('2025-11-05T12:00:00Z'), from: new Date('2025-01-01T00:00:00Z') });
  const zones = ZONES.map((z, i) => ({ id: 100 - i, code: z.code, eic: z.eic, name: z.name, timeZone: z.timeZone }));
  const zoneId = new Map(zones.map((z) => [z.code, z.id]));
  const borders = BORDERS.map(([a, b], i) => ({
    id: 7 + 3 * i,
    zoneAId: zoneId.get(a) ?? 0,
    zoneBId: zoneId.get(b) ?? 0,
    a,
    b,
    key: `${a}->${b}`,
  }));
  const catalogue = new Catalogue(zones, borders);
  const zoneIds = data.prices.map((z) => zoneId.get(z.code) ?? 0);
  const borderIds = data.flows.map(
    (f) => catalogue.border(`${data.borders[f.border]?.a}->${data.borders[f.border]?.b}`)?.id ?? 0,
  );
  const all = { from: 0, to: data.hours };

  it('are the bytes appendPrices sends for the same rows, in chunks of COPY_CHUNK_ROWS', async () => {
    const rows = demoPriceRows(data, catalogue, all);
    expect(rows.length).toBeGreaterThan(COPY_CHUNK_ROWS);
    const { sql, copies } = recordingSql();
    await appendPrices(sql, rows);
    const direct = demoPricePayloads(data, zoneIds, all);
    expect(direct.rows).toBe(rows.length);
    expect(direct.payloads.length).toBe(Math.ceil(rows.length / COPY_CHUNK_ROWS));
    expect(direct.payloads.map((p) => Buffer.from(p).toString('hex'))).toEqual(
      copies.map((c) => Buffer.from(c.payload).toString('hex')),
    );
  });

  it('are the bytes appendBorderHours sends, months with outages and hours after now included', async () => {
    for (const slice of [monthSlices(data).at(-1) ?? all, all]) {
      const rows = demoBorderHourRows(data, catalogue, slice);
      expect(rows.some((r) => r.physicalAbMw === null)).toBe(true);
      const { sql, copies } = recordingSql();
      await appendBorderHours(sql, rows);
      const direct = demoBorderHourPayloads(data, borderIds, slice);
      expect(direct.rows).toBe(rows.length);
      expect(direct.payloads.map((p) => Buffer.from(p).equals(Buffer.from(copies.shift()?.payload ?? [])))).toEqual(
        direct.payloads.map(() => true),
      );
      expect(copies).toEqual([]);
    }
  });
});
