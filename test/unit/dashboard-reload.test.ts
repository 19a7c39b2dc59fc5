import { describe, expect, it } from 'vitest';
import { panelsOfInput, panelsToLoad } from '../../src/dashboard/reload.js';

describe('reloading on a change of the selection', () => {
  it('reloads the zone panels for zones and resolution, the border panels for the border, everything else for the rest', () => {
    expect(panelsOfInput('zone')).toEqual(['prices', 'zones']);
    expect(panelsOfInput('res')).toEqual(['prices', 'zones']);
    expect(panelsOfInput('border')).toEqual(['flows']);
    for (const name of ['range', 'from', 'to', 'tz'])
      expect(panelsOfInput(name)).toEqual(['prices', 'zones', 'flows', 'map']);
  });

  it('loads only the due panels, none while the range is blocked, and every one after a blocked range', () => {
    expect(panelsToLoad(new Set(['flows'] as const), false, false)).toEqual(['flows']);
    expect(panelsToLoad(new Set(['flows'] as const), true, true)).toEqual([]);
    expect(panelsToLoad(new Set(['flows'] as const), true, false)).toEqual([]);
    expect(panelsToLoad(new Set(['map', 'flows'] as const), false, true)).toEqual(['map', 'flows', 'prices', 'zones']);
  });
});
