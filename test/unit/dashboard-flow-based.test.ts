import { describe, expect, it } from 'vitest';
import { isFlowBased } from '../../src/dashboard/flow-based.js';
import { BORDERS } from '../../src/domain/catalogue-data.js';

/** The Core region's internal borders of the catalogue, listed by hand from the Core CCR map. */
const CORE_BORDERS =
  'AT-CZ AT-DE_LU AT-HU AT-SI BE-DE_LU BE-FR BE-NL CZ-DE_LU CZ-PL CZ-SK DE_LU-FR DE_LU-NL DE_LU-PL HR-HU HR-SI HU-RO HU-SI HU-SK PL-SK';

describe('flow-based (Core) borders on the dashboard', () => {
  it("marks exactly the catalogue's 19 borders inside the Core region, either way round", () => {
    const marked = BORDERS.filter(([a, b]) => isFlowBased(a, b)).map(([a, b]) => `${a}-${b}`);
    expect(marked.join(' ')).toBe(CORE_BORDERS);
    expect(isFlowBased('FR', 'DE_LU')).toBe(true);
  });

  it('leaves borders with one zone outside Core on NTC', () => {
    for (const [a, b] of [
      ['CH', 'DE_LU'],
      ['ES', 'FR'],
      ['DK_1', 'DE_LU'],
      ['HU', 'RS'],
    ] as const)
      expect(isFlowBased(a, b), `${a}-${b}`).toBe(false);
  });
});
