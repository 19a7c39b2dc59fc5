import { describe, expect, it } from 'vitest';
import { growingParts } from '../../src/services/export.js';

const iso = (parts: readonly { from: Date; to: Date }[]) =>
  parts.map((p) => `${p.from.toISOString().slice(0, 13)}/${p.to.toISOString().slice(0, 13)}`);

describe('growingParts', () => {
  it('cuts at UTC midnights, doubling from the first size up to the largest', () => {
    const range = { from: new Date('2025-01-01T06:00Z'), to: new Date('2025-02-05T00:00Z') };
    expect(iso(growingParts(range, 2, 8))).toEqual([
      '2025-01-01T06/2025-01-03T00',
      '2025-01-03T00/2025-01-07T00',
      '2025-01-07T00/2025-01-15T00',
      '2025-01-15T00/2025-01-23T00',
      '2025-01-23T00/2025-01-31T00',
      '2025-01-31T00/2025-02-05T00',
    ]);
  });

  it('gives a range shorter than the first part whole', () => {
    const range = { from: new Date('2025-01-01T00:00Z'), to: new Date('2025-01-01T12:00Z') };
    expect(iso(growingParts(range, 0.2, 3))).toEqual(['2025-01-01T00/2025-01-01T12']);
  });
});
