import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, readState, writeState, type ViewState } from '../../src/dashboard/state.js';

const known = {
  zones: new Set(['DE_LU', 'FR', 'NL', 'ES', 'PL', 'BE', 'NO_1']),
  borders: new Set(['DE_LU->FR', 'BE->NL']),
};

describe('dashboard URL state', () => {
  it('round-trips every selection through the query string', () => {
    const state: ViewState = {
      zones: ['BE', 'NO_1'],
      border: 'BE->NL',
      range: { kind: 'custom', from: '2025-11-01', to: '2025-11-03' },
      resolution: 'NATIVE',
      tz: 'local',
      hour: '2025-11-02T13:00:00Z',
    };
    expect(readState(writeState(state), known)).toEqual(state);
  });

  it('falls back to the defaults for missing or unknown values, and keeps only known zones', () => {
    expect(readState('', known)).toEqual(DEFAULT_STATE);
    const state = readState('?zones=FR,XX,fr&border=XX->YY&range=9&res=weird&tz=mars&t=soon', known);
    expect(state).toEqual({ ...DEFAULT_STATE, zones: ['FR'] });
  });

  it('keeps an explicitly empty zone list empty', () => {
    expect(readState('?zones=', known).zones).toEqual([]);
  });
});
