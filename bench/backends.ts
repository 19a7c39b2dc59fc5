/**
 * The embedded-against-PostgreSQL leg of `npm run bench`: the same requests to an app on PGlite and
 * an app on PostgreSQL, in interleaved rounds, so that drift in the machine's speed (other tenants'
 * load on a shared host) weighs on both alike; p50 of the embedded app as a multiple of PostgreSQL's
 * against issue 14's target (<= 1.5x).
 */
import type { Database } from '../src/db/client.js';
import { type BenchCase, type BenchResult, measureInterleaved } from './load.js';

/** How to run the comparison: the cases (paths on either app) and the apps' server. */
export interface BackendOptions {
  readonly cases: readonly BenchCase[];
  readonly seconds: number;
  readonly connections: readonly number[];
  readonly serve: (db: Database) => Promise<{ base: string; close: () => Promise<void> }>;
}

const TARGET = 1.5;

/** One Markdown table per connection count: PGlite p50, PostgreSQL p50 and their ratio per case. */
export async function runBackendComparison(
  pglite: Database,
  postgres: Database,
  opts: BackendOptions,
): Promise<string> {
  const embedded = await opts.serve(pglite);
  const server = await opts.serve(postgres);
  const lines: string[] = [];
  try {
    for (const connections of opts.connections) {
      lines.push(
        `### Embedded (PGlite) against PostgreSQL 15, ${connections} connection${connections > 1 ? 's' : ''}, interleaved (target <= ${TARGET}x)`,
        '',
        '| case | PGlite p50 / p95 ms | PostgreSQL p50 / p95 ms | PGlite / PostgreSQL | req/s PGlite / PostgreSQL | errors |',
        '|---|---|---|---|---|---|',
      );
      for (const c of opts.cases) {
        const [e, p] = (await measureInterleaved(
          '',
          [
            { ...c, base: embedded.base },
            { ...c, base: server.base },
          ],
          opts.seconds,
          connections,
        )) as [BenchResult, BenchResult];
        const ratio = e.p50 / p.p50;
        lines.push(
          `| ${c.name} | ${e.p50} / ${e.p95} | ${p.p50} / ${p.p95} | **${ratio.toFixed(2)}x**${ratio <= TARGET ? '' : ' (over)'} | ${e.rps} / ${p.rps} | ${e.errors + e.non2xx + p.errors + p.non2xx} |`,
        );
      }
      lines.push('');
    }
  } finally {
    await embedded.close();
    await server.close();
  }
  return lines.join('\n');
}
