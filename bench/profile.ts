/**
 * `node --cpu-prof --import tsx bench/profile.ts [surface] [n]`: the floor requests of bench/floor.ts
 * against the app on the bench schema (seeded by `npm run bench`), `n` times each, one at a time,
 * through REST, GraphQL or both, for a CPU profile of the server path.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openPostgres } from '../src/db/client.js';
import { TRIPLES } from './floor.js';

const [surface = 'both', count = '200', only] = process.argv.slice(2);
const url = 'postgresql://postgres@127.0.0.1:5432/test';
const db = await openPostgres(testConfig({ DATABASE_URL: url, DATABASE_SCHEMA: 'bench' }), url);
const app = await createApp({ config: testConfig({ RATE_LIMIT_CAPACITY: 1_000_000_000, RATE_LIMIT_REFILL_PER_SECOND: 1_000_000 }), db });
const server = createServer(app.yoga);
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
for (const [i, t] of TRIPLES.entries()) {
  if (only !== undefined && Number(only) !== i) continue;
  const started = performance.now();
  const n = i === 2 ? Math.ceil(Number(count) / 10) : Number(count);
  for (let k = 0; k < n; k++) {
    if (surface !== 'graphql') await (await fetch(base + t.rest)).arrayBuffer();
    if (surface !== 'rest') {
      await (await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: t.graphql }) })).arrayBuffer();
    }
  }
  process.stderr.write(`${t.name}: ${((performance.now() - started) / n).toFixed(2)} ms per round\n`);
}
await new Promise((r) => server.close(r));
await app.close();
await db.close();
