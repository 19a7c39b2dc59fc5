/**
 * The demo load reports its progress month by month (one line per month off a terminal, naming
 * the month and its rows, with elapsed time and ETA), and the rows reported add up to the load.
 */
import { Writable } from 'node:stream';
import { describe, expect } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { createProgress } from '../../src/ingest/progress.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

describe('progress of the demo load', () => {
  it('prints a line per calendar month with its rows, elapsed time and ETA', async ({ db }) => {
    let text = '';
    const stream = Object.assign(new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }), { isTTY: false });
    const progress = createProgress({ stream, startLine: (n) => `loading ${n} month(s)` });
    const result = await seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM, progress });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('loading 3 month(s)');
    expect(lines.slice(1).map((l) => l.replace(/\d+ row.*$/, ''))).toEqual([
      '[1/3] demo data 2025-09: prices, flows: ',
      '[2/3] demo data 2025-10: prices, flows: ',
      '[3/3] demo data 2025-11: prices, flows: ',
    ]);
    for (const line of lines.slice(1)) expect(line).toMatch(/row\(s\) \(elapsed \d+s, ETA \d+s\)$/);
    const rows = lines.slice(1).reduce((sum, l) => sum + Number(/: (\d+) row/.exec(l)?.[1]), 0);
    expect(rows).toBe((result?.prices ?? 0) + (result?.borderHours ?? 0));
  });
});
