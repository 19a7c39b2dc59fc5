import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { queryWithFormat } from '../../src/rest/formats.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { SWEEP_SEED, TEST_BACKENDS } from '../support/env.js';
import { CLASSIC, hostileParam, leakIn, type ParamValue, queryText } from '../support/hostile.js';

/** An inverted range is reported on `datetime_to`, whichever of the two was sent. */
const RANGE_PARAMS = ['datetime_from', 'datetime_to'];

/** What is wrong with one answer to hostile parameters, or null when it is as it should be. */
async function verdict(res: Response, sent: readonly ParamValue[]): Promise<string | null> {
  const body = await res.text();
  const values = sent.flatMap((p) => p.values);
  const leak = leakIn(body, values);
  if (leak) return `leak: ${leak}`;
  if (res.status === 200) return null;
  if (res.status !== 422) return `status ${res.status}: ${body.slice(0, 300)}`;
  const detail = (JSON.parse(body) as { detail: { loc: string[]; msg: string; type: string }[] }).detail;
  const named = new Set(sent.filter((p) => !p.arrayForm).map((p) => p.name));
  if (named.has('datetime_from') || named.has('datetime_to')) for (const p of RANGE_PARAMS) named.add(p);
  const bad = detail.filter((d) => d.loc[0] !== 'query' || !named.has(d.loc[1] ?? '') || !d.msg || !d.type);
  return bad.length ? `422 not naming a sent parameter: ${JSON.stringify(bad)}` : null;
}

function paramsOf(path: string): string[] {
  const endpoint = ENDPOINTS.find((e) => e.path === path)!;
  return Object.keys(queryWithFormat(endpoint.query).shape);
}

describe.each(TEST_BACKENDS)('hostile REST parameters on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 1_000_000 } });

  const ask = async (path: string, sent: ParamValue[]) => {
    const res = await t.get(`${path}?${queryText(sent)}`);
    return { status: res.status, problem: await verdict(res, sent) };
  };

  it('answers every classic hostile value of every parameter of every endpoint with 200 or a 422 naming it', async () => {
    const problems: string[] = [];
    for (const e of ENDPOINTS) {
      for (const name of paramsOf(e.path)) {
        for (const value of CLASSIC) {
          const { problem } = await ask(e.path, [{ name, values: [value], arrayForm: false }]);
          if (problem) problems.push(`${e.path}?${name}=${JSON.stringify(value)}: ${problem}`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  }, 240_000);

  it('answers generated combinations of hostile parameters without a server error or an internal detail', async () => {
    const request = fc.constantFrom(...ENDPOINTS.map((e) => e.path)).chain((path) =>
      fc.tuple(
        fc.constant(path),
        fc
          .uniqueArray(fc.constantFrom(...paramsOf(path)), { minLength: 1, maxLength: 4 })
          .chain((names) => fc.tuple(...names.map(hostileParam))),
      ),
    );
    await fc.assert(
      fc.asyncProperty(request, async ([path, sent]) => {
        const { problem } = await ask(path, sent);
        expect(problem, `${path}?${queryText(sent)}`).toBeNull();
      }),
      { numRuns: 300, seed: SWEEP_SEED, interruptAfterTimeLimit: 60_000 },
    );
  }, 120_000);
});
