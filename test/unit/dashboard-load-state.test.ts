import { describe, expect, it } from 'vitest';
import { sourcesText } from '../../src/dashboard/clock.js';
import { pageState, serverTimeText } from '../../src/dashboard/status.js';

describe("the page's load state", () => {
  it('is loading while any load runs, an error after a failure, else ready', () => {
    expect(pageState(2, null)).toBe('loading');
    expect(pageState(1, 'HTTP 500')).toBe('loading');
    expect(pageState(0, 'HTTP 500')).toBe('error');
    expect(pageState(0, null)).toBe('ready');
  });

  it("says the server's clock in UTC to the minute once everything loaded", () => {
    expect(serverTimeText(Date.parse('2026-11-29T08:33:45.123Z'))).toBe('Server time 2026-11-29 08:33 UTC.');
  });

  it('names the upstream sources, and leaves the line alone when there are none', () => {
    expect(sourcesText(['ENTSO-E', 'demo'])).toBe('Data source: ENTSO-E, demo.');
    expect(sourcesText([])).toBeNull();
  });
});
