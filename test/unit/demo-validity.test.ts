import { describe, expect, it } from 'vitest';
import { demoFrom } from '../../src/bootstrap.js';
import { demoRange } from '../../src/demo/calendar.js';
import { DEMO_VALID_FROM_MS, DEMO_ZONE_CODES, demoBorders } from '../../src/demo/profiles.js';
import { borderPeriod, covers, zonePeriod } from '../../src/domain/validity.js';
import { DEMO_TEST_NOW } from '../support/db.js';

describe('the demo data set and the zones that changed', () => {
  it('starts no earlier than 2018-10-01, when DE_LU, AT and IE_SEM began', () => {
    expect(new Date(DEMO_VALID_FROM_MS).toISOString()).toBe('2018-10-01T00:00:00.000Z');
    const now = new Date('2026-11-27T12:00:00Z');
    expect(demoFrom({ DEMO_HISTORY_DAYS: 3650 }, now)?.toISOString()).toBe('2018-10-01T00:00:00.000Z');
    expect(demoFrom({ DEMO_HISTORY_DAYS: 30 }, now)?.toISOString()).toBe('2026-10-28T12:00:00.000Z');
  });

  it('generates only zones and borders that exist over its whole default range', () => {
    const range = demoRange(DEMO_TEST_NOW);
    const r = { from: range.start, to: range.end };
    for (const code of DEMO_ZONE_CODES) expect([code, covers(zonePeriod(code), r)]).toEqual([code, true]);
    for (const b of demoBorders(1)) expect([b.a, b.b, covers(borderPeriod(b.a, b.b)!, r)]).toEqual([b.a, b.b, true]);
    expect(DEMO_ZONE_CODES).not.toContain('DE_AT_LU');
  });
});
