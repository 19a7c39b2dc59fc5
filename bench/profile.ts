/**
 * `npm run build:bench && node --cpu-prof dist/bench/profile.js [surface] [n] [case] [connections]` (the build, as `npm run bench`
 * measures it; `--import tsx bench/profile.ts` profiles the sources, esbuild's `__name` calls included): the floor
 * requests of bench/floor.ts against the app on the bench schema (seeded by `npm run bench`), `n`
 * times each through REST, GraphQL, both or the floor, `connections` at a time (default 1), for a CPU profile
 * of the server path under concurrency.
 */
import { createApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openPostgres } from '../src/db/client.js';
import { readCatalogue } from '../src/repositories/catalogue/catalogue.js';
import { FLOOR_ROUTES, TRIPLES } from './floor.js';
import { startFloor } from './floor-server.js';
import { listenOnLoopback } from './loopback.js';

/** As autocannon sends them: no Accept-Encoding, so responses go out uncompressed (fetch would ask for gzip). */
const IDENTITY = { 'accept-encoding': 'identity' };
const [surface = 'both', count = '200', only, connections = '1'] = process.argv.slice(2);
const url = 'postgresql://postgres@127.0.0.1:5432/test';
const db = await openPostgres(testConfig({ DATABASE_URL: url, DATABASE_SCHEMA: 'bench' }), url);
const app = await createApp({
  config: testConfig({
    RATE_LIMIT_CAPACITY: 1_000_000_000,
    RATE_LIMIT_REFILL_PER_SECOND: 1_000_000,
    RESPONSE_CACHE: false,
  }),
  db,
});
const served = await listenOnLoopback(app.yoga, () => app.close());
const { base } = served;
const floor = await startFloor(url, 'bench', { catalogue: await readCatalogue(db), now: Date.now }, FLOOR_ROUTES);
for (const [i, t] of TRIPLES.entries()) {
  if (only !== undefined && only !== '' && Number(only) !== i) continue;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const n = i === 2 ? Math.ceil(Number(count) / 10) : Number(count);
  let next = 0;
  const worker = async () => {
    while (next++ < n) {
      if (surface === 'floor') {
        await (await fetch(`${floor.base}/${i}`, { headers: IDENTITY })).arrayBuffer();
        continue;
      }
      if (surface !== 'graphql') await (await fetch(base + t.rest, { headers: IDENTITY })).arrayBuffer();
      if (surface !== 'rest') {
        await (
          await fetch(`${base}/graphql`, {
            method: 'POST',
            headers: { ...IDENTITY, 'content-type': 'application/json' },
            body: JSON.stringify({ query: t.graphql }),
          })
        ).arrayBuffer();
      }
    }
  };
  await Promise.all(Array.from({ length: Number(connections) }, worker));
  const used = process.cpuUsage(cpu);
  process.stderr.write(
    `${t.name}: ${((performance.now() - started) / n).toFixed(2)} ms per round, CPU ${((used.user + used.system) / 1000 / n).toFixed(2)} ms per round\n`,
  );
}
await floor.close();
await served.close();
await db.close();
