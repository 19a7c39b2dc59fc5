/**
 * The first start generates the demo data in steps that give the event loop a turn (so the
 * server answers `/healthz` meanwhile), and the data is the same as generated at once.
 */
import { describe, expect, it } from 'vitest';
import { demoSteps, generateDemo } from '../../src/demo/generate.js';
import { drain, drainYielding } from '../../src/demo/steps.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW } from '../support/db.js';

describe('demo generation in steps', () => {
  it('lets I/O callbacks run between steps and gives the data generated at once', async () => {
    const options = { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const stepped = await drainYielding(demoSteps(options)).finally(() => clearInterval(timer));
    expect(ticks).toBeGreaterThan(10);
    expect(stepped).toEqual(generateDemo(options));
  });

  it('drains a generator to its result, in order', async () => {
    const seen: number[] = [];
    function* steps(): Generator<void, string> {
      for (let i = 0; i < 3; i++) {
        seen.push(i);
        yield;
      }
      return 'done';
    }
    expect(drain(steps())).toBe('done');
    expect(await drainYielding(steps())).toBe('done');
    expect(seen).toEqual([0, 1, 2, 0, 1, 2]);
  });
});
