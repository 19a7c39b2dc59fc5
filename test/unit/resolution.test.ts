import { describe, expect, it } from 'vitest';
import { applyResolution, atLeastDaily, autoResolution } from '../../src/domain/resolution.js';
import { InputError } from '../../src/errors.js';

const H = 3_600_000;
const range = (hours: number) => ({ from: new Date(0), to: new Date(hours * H) });

describe('auto resolution', () => {
  it('follows the width table of the contract with inclusive bounds', () => {
    expect(autoResolution(48 * H)).toBe('native');
    expect(autoResolution(48 * H + 1)).toBe('1H');
    expect(autoResolution(14 * 24 * H)).toBe('1H');
    expect(autoResolution(14 * 24 * H + 1)).toBe('1D');
    expect(autoResolution(90 * 24 * H)).toBe('1D');
    expect(autoResolution(90 * 24 * H + 1)).toBe('1W');
  });
  it('never fails on width', () => {
    expect(applyResolution('auto', range(24 * 3650))).toBe('1W');
  });
});

describe('explicit resolution caps', () => {
  it('accepts native up to exactly 48 hours and rejects beyond', () => {
    expect(applyResolution('native', range(48))).toBe('native');
    expect(() => applyResolution('native', range(49))).toThrow(InputError);
  });
  it('accepts 1H up to 14 days and rejects beyond, naming the resolution parameter', () => {
    expect(applyResolution('1H', range(14 * 24))).toBe('1H');
    try {
      applyResolution('1H', range(14 * 24 + 1));
      expect.unreachable();
    } catch (err) {
      expect((err as InputError).issues[0]).toMatchObject({ param: 'resolution', type: 'value_error' });
    }
  });
  it('has no cap for 1D and 1W', () => {
    expect(applyResolution('1D', range(24 * 3650))).toBe('1D');
    expect(applyResolution('1W', range(24 * 3650))).toBe('1W');
  });
  it('lifts daily endpoints to at least 1D', () => {
    expect(atLeastDaily('native')).toBe('1D');
    expect(atLeastDaily('1H')).toBe('1D');
    expect(atLeastDaily('1W')).toBe('1W');
  });
});
