import { describe, expect, it } from 'vitest';
import type { FlowRecord } from '../../src/domain/records.js';
import { wireRowOf } from '../../src/contract/json.js';
import { rowJsonOf } from '../support/row-json.js';
import { FLOW_ROW } from '../../src/contract/rows/flows.js';
import { Rng } from '../../src/demo/rng.js';

const base: FlowRecord = {
  datetime: new Date('2025-10-26T01:00:00Z'),
  zoneFrom: 'DE_LU',
  zoneTo: 'FR',
  flowType: 'counter_intuitive',
  flowInterpolated: false,
  netFlowMw: 1234.5678,
  priceFrom: 80.12345,
  priceTo: 79.9,
  capacityMw: 3000,
  hours: 1,
  derived: false,
};

const flowRowJson = rowJsonOf(FLOW_ROW);
const toRow = wireRowOf(FLOW_ROW);

describe('the /flows row serialiser of the flow row contract', () => {
  const cases: FlowRecord[] = [
    base,
    { ...base, priceFrom: null, priceTo: null, capacityMw: null, flowInterpolated: true, hours: 168 },
    { ...base, priceTo: null },
    { ...base, netFlowMw: 0, priceFrom: -0.00004, priceTo: 0.00004, capacityMw: -0.0004 },
    { ...base, netFlowMw: 0.0005, priceFrom: -150.00005, priceTo: 2999.99995, capacityMw: 1e-7 },
    { ...base, netFlowMw: 1e21, priceFrom: 1e-7, priceTo: -1e-7, datetime: new Date('2021-01-04T00:00:00Z') },
  ];

  it('writes exactly what JSON.stringify writes for the wire row', () => {
    for (const r of cases) expect(flowRowJson(r)).toBe(JSON.stringify(toRow(r)));
  });

  it('agrees on random values, negative zero and rounding ties included', () => {
    const rng = new Rng(7, 'flow-row-json');
    for (let i = 0; i < 20_000; i++) {
      const pick = (scale: number) =>
        rng.chance(0.1) ? null : (Math.round(rng.range(-scale, scale) * 1e5) / 1e5) * (rng.chance(0.1) ? 1e-4 : 1);
      const r: FlowRecord = {
        ...base,
        netFlowMw: pick(5000) ?? -0,
        priceFrom: pick(500),
        priceTo: pick(500),
        capacityMw: pick(8000),
        flowInterpolated: rng.chance(0.5),
        hours: rng.int(1, 168),
      };
      expect(flowRowJson(r)).toBe(JSON.stringify(toRow(r)));
    }
  });
});
