/**
 * The pooled-against-direct leg of `npm run bench -- --pgbouncer`: the same requests to an app on
 * PostgreSQL directly and to one whose DATABASE_URL is a PgBouncer in transaction mode
 * (deploy/pgbouncer.ini, DATABASE_DIRECT_URL beside it), in interleaved rounds; per case the median
 * of the rounds' p50 with their range, and the pooled p50 as a multiple of the direct one.
 */
import { type Config, testConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import { openServerDatabase } from '../src/db/server-database.js';
import { type BenchCase, measureInterleaved } from './load.js';
import { startPgbouncer } from './pgbouncer.js';

/** How to run the comparison. */
export interface PoolerOptions {
  readonly pgUrl: string;
  /** The direct app's settings (schema, pool size); the pooled app gets the same on the pooler. */
  readonly config: Partial<Config>;
  readonly cases: readonly BenchCase[];
  readonly seconds: number;
  readonly connections: readonly number[];
  readonly serve: (db: Database) => Promise<{ base: string; close: () => Promise<void> }>;
}

/** Interleaved rounds per case; each lasts `seconds / ROUNDS` per app. */
const ROUNDS = 5;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: readonly number[]) =>
  `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

/** One Markdown table per connection count: direct and pooled p50 (ms, median and range of the rounds) and their ratio. */
export async function runPoolerComparison(direct: Database, opts: PoolerOptions): Promise<string> {
  const bouncer = await startPgbouncer(opts.pgUrl, { poolSize: testConfig(opts.config).DATABASE_POOL_SIZE });
  const lines: string[] = [];
  try {
    const { db: pooled } = await openServerDatabase(
      testConfig({ ...opts.config, DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: opts.pgUrl }),
    );
    const straight = await opts.serve(direct);
    const through = await opts.serve(pooled);
    try {
      for (const connections of opts.connections) {
        lines.push(
          `### PostgreSQL direct against PgBouncer (transaction mode, deploy/pgbouncer.ini), ${connections} connection${connections > 1 ? 's' : ''}, ${ROUNDS} interleaved rounds`,
          '',
          '| case | direct p50 ms (range) | pooled p50 ms (range) | pooled / direct | errors |',
          '|---|---|---|---|---|',
        );
        for (const c of opts.cases) {
          const straightP50: number[] = [];
          const pooledP50: number[] = [];
          let errors = 0;
          for (let round = 0; round < ROUNDS; round++) {
            const pair = [
              { ...c, base: straight.base },
              { ...c, base: through.base },
            ];
            const flip = round % 2 === 1;
            const measured = await measureInterleaved(
              '',
              flip ? [...pair].reverse() : pair,
              opts.seconds / ROUNDS,
              connections,
              1,
            );
            const [d, p] = flip ? measured.reverse() : measured;
            straightP50.push(d!.p50);
            pooledP50.push(p!.p50);
            errors += d!.errors + d!.non2xx + p!.errors + p!.non2xx;
          }
          lines.push(
            `| ${c.name} | ${spread(straightP50)} | ${spread(pooledP50)} | ${(median(pooledP50) / median(straightP50)).toFixed(2)}x | ${errors} |`,
          );
        }
        lines.push('');
      }
    } finally {
      await straight.close();
      await through.close();
      await pooled.close();
    }
  } finally {
    await bouncer.stop();
  }
  return lines.join('\n');
}
