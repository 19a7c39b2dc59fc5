/**
 * docs/api-names.md maps REST names to GraphQL names. Its row-field table must give, for every
 * field a row contract names on both surfaces, that very pair, so the page cannot drift from the
 * contracts the two surfaces are generated from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RowContract } from '../../src/contract/fields.js';
import * as catalogue from '../../src/contract/rows/catalogue.js';
import * as flowAggregates from '../../src/contract/rows/flow-aggregates.js';
import * as flows from '../../src/contract/rows/flows.js';
import * as prices from '../../src/contract/rows/prices.js';
import * as zoneAggregates from '../../src/contract/rows/zone-aggregates.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

const CONTRACTS = [catalogue, flowAggregates, flows, prices, zoneAggregates].flatMap(
  (module) => Object.values(module) as RowContract<unknown>[],
);

/** The backticked names of a table cell, in order (`a`, `b` (and `c: Zone`) gives a, b). */
const namesIn = (cell: string): string[] =>
  [...cell.replace(/\(and [^)]*\)/g, '').matchAll(/`([a-z_A-Z.0-9]+)`/g)].map((m) => m[1]!);

/** "rest -> graphql" for each pair the "Row fields" table of the page lists side by side. */
function documentedPairs(): Set<string> {
  const page = readFileSync(join(PROJECT_ROOT, 'docs/api-names.md'), 'utf8');
  const table = page.slice(page.indexOf('## Row fields'));
  const pairs = new Set<string>();
  for (const line of table.split('\n').filter((l) => l.startsWith('|'))) {
    const [, , rest = '', graphql = ''] = line.split('|');
    const [r, g] = [namesIn(rest), namesIn(graphql)];
    if (r.length !== g.length) continue;
    for (const [i, name] of r.entries()) pairs.add(`${name} -> ${g[i]}`);
  }
  return pairs;
}

describe('docs/api-names.md', () => {
  it('names every REST row field with the GraphQL field its row contract gives it', () => {
    const pairs = documentedPairs();
    const fields = CONTRACTS.flatMap((c) =>
      c.fields.filter((f) => f.rest && f.graphql).map((f) => `${f.rest} -> ${f.graphql}`),
    );
    expect(fields.length).toBeGreaterThan(50);
    expect(fields.filter((pair) => !pairs.has(pair))).toEqual([]);
  });
});
