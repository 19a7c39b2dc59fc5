import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { prepareDatabase } from '../src/bootstrap.js';
import { testConfig } from '../src/config.js';
import { type Database, openPostgres } from '../src/db/client.js';
import { openServerDatabase } from '../src/db/server-database.js';
import { type parseCommandLine, runCommandLine } from '../src/cli/command-line.js';
import { createLogger } from '../src/logger.js';
import { runAccess } from './access.js';
import { runBackendComparison } from './backends.js';
import { runFloorComparison } from './floor.js';
import { runPoolerComparison } from './pooler.js';
import { runLarge } from './large.js';
import { runLargeCompare } from './large-compare.js';
import { type Loopback, listenOnLoopback } from './loopback.js';
import { type BenchCase, type BenchResult, graphqlCase, measureInterleaved, table } from './load.js';
import { runIngestBench } from './ingest.js';
import { timeStartup } from './startup.js';
import { runTransport } from './transport.js';
import { runExportBench } from './export.js';
import { runLargeExportBench } from './export-large.js';
import { runDashboardBench } from './dashboard.js';

const CLI = {
  script: 'bench',
  usage: `usage: npm run bench [-- options]
Measures start-up of the compiled server (built first), REST and GraphQL latency on the embedded database and on PostgreSQL (there
against a floor, bench/floor-server.ts, and graphql-yoga alone, bench/yoga-reference.ts; response caches off), the response caches' hit and 304 latency
and compressed sizes, the embedded app against the PostgreSQL one in interleaved rounds, and ingestion; writes bench-results/latest.md (large.md with --large, access.md with --access).
  --seconds <n>        seconds per case (default 10, 30 with --access)
  --connections <list> concurrent connections, comma-separated counts measured in turn (default 1,8)
  --pg-url <url>       PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/test)
  --skip-startup | --skip-pg | --skip-pglite | --skip-ingest   leave a part out
  --large [--years <n>]                 only the large data set cases on PostgreSQL (default 5 years)
  --large --years <a>,<b> [--schema-prefix <p>] [--rounds <n>]   issue 35's cases on two data sets side by side
                       (schemas <p><a>y and <p><b>y, default prefix bench_large_; 5 rounds; bench/large-compare.ts)
                       [--case <text>] only the cases whose name contains the text (e.g. price-kpis)
  --access [--keys <n>] [--redis-url <url>]   only the rate-limit load (default 20 keys)
  --export --years <n> [--schema-prefix <p>] [--rounds <n>] [--case <text>]   issue 44 on <p><n>y: every border's hourly flows as CSV export against psql COPY of its SQL (and as NDJSON, Arrow and Parquet, with the server's RSS growth), an aborted export's statement, ci-share / flow-type summary / scatter at 1H over the span; the server is dist/src/main.js (npm run build:bench first; bench/export-large.ts; writes export-large.md)
  --export [--rounds <n>]   only the export cases: a year of native prices of every zone as CSV and Parquet exports against psql COPY of the same SQL (bench/export.ts; bench_large when seeded, else the demo data in bench_export; writes export.md)
  --dashboard [--rounds <n>]   only the dashboard's first render in chromium: a cold and 3 warm loads per round over the demo data on PostgreSQL (npm run build first; bench/dashboard.ts; writes dashboard.md)
  --backends           only the embedded app against the PostgreSQL one, interleaved (writes backends.md)
  --pgbouncer          also the PostgreSQL app directly against one behind PgBouncer (/usr/sbin/pgbouncer, deploy/pgbouncer.ini), interleaved`,
  options: {
    /** Seconds per case; default 10, 30 with `--access`. */
    seconds: { type: 'string' },
    connections: { type: 'string', default: '1,8' },
    'pg-url': { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/test' },
    'skip-startup': { type: 'boolean', default: false },
    'skip-pg': { type: 'boolean', default: false },
    'skip-pglite': { type: 'boolean', default: false },
    'skip-ingest': { type: 'boolean', default: false },
    /** Only the large data set cases (bench/large.ts) on PostgreSQL, `--years` years (default 5). */
    large: { type: 'boolean', default: false },
    years: { type: 'string', default: '5' },
    /** With two `--years`: the schemas are `<prefix><years>y`. */
    'schema-prefix': { type: 'string', default: 'bench_large_' },
    rounds: { type: 'string', default: '5' },
    /** With two `--years`: only the cases whose name contains this text. */
    case: { type: 'string' },
    /** Only the rate-limit load (bench/access.ts): `--keys` keys at 10x the refill rate, memory and Redis buckets. */
    access: { type: 'boolean', default: false },
    keys: { type: 'string', default: '20' },
    /** Only issue 44's export cases (bench/export.ts): CSV and Parquet exports against psql COPY, `--rounds` rounds. */
    export: { type: 'boolean', default: false },
    /** Only the dashboard's first render in chromium (bench/dashboard.ts), `--rounds` rounds. */
    dashboard: { type: 'boolean', default: false },
    /** Only the interleaved embedded-against-PostgreSQL leg (bench/backends.ts). */
    backends: { type: 'boolean', default: false },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    /** The direct-against-pooled leg (bench/pooler.ts) in the PostgreSQL part. */
    pgbouncer: { type: 'boolean', default: false },
  },
} as const;

type Args = ReturnType<typeof parseCommandLine<typeof CLI.options>>['values'];

/** The REST envelope's content: meta and rows (REST computes no total count, so neither does this). */
const PRICE_FIELDS =
  'meta { provenance upstreamSources resolvedFrom resolvedTo resolution } edges { node { datetime biddingZone priceEurMwh interpolated year } }';
/** Each REST case with the same query through GraphQL, measured in interleaved rounds. */
const PAIRS: (readonly [BenchCase, BenchCase])[] = [
  [
    { name: 'REST /prices default (all zones, 30 d, 1D)', path: '/api/v1/prices' },
    graphqlCase('GraphQL prices default (all zones, 30 d, 1D)', `{ prices(first: 10000) { ${PRICE_FIELDS} } }`),
  ],
  [
    { name: 'REST /prices DE_LU native 2 d', path: '/api/v1/prices?zone=DE_LU&datetime_from=now-2d&resolution=native' },
    graphqlCase(
      'GraphQL prices DE_LU native 2 d',
      `{ prices(zones: ["DE_LU"], from: "now-2d", resolution: NATIVE, first: 10000) { ${PRICE_FIELDS} } }`,
    ),
  ],
];

/** The app on a free loopback port; `close` ends its connections, the server and the app's own resources. */
async function serve(db: Database): Promise<Loopback> {
  const app = await createApp({
    config: testConfig({
      RATE_LIMIT_CAPACITY: 1_000_000_000,
      RATE_LIMIT_REFILL_PER_SECOND: 1_000_000,
      RESPONSE_CACHE: false,
    }),
    db,
  });
  return listenOnLoopback(app.yoga, () => app.close());
}

/** The latency table of the price cases, then GraphQL's p50 and throughput against REST's. */
async function latency(title: string, db: Database, seconds: string, connections: readonly number[]): Promise<string> {
  const { base, close } = await serve(db);
  const parts: string[] = [];
  for (const c of connections) {
    const results: BenchResult[] = [];
    const ratios: string[] = [];
    for (const pair of PAIRS) {
      const [rest, gql] = await measureInterleaved(base, pair, Number(seconds), c);
      results.push(rest!, gql!);
      ratios.push(
        `- ${gql!.name}: p50 ${(gql!.p50 / rest!.p50).toFixed(2)}x REST's, throughput ${(rest!.rps / gql!.rps).toFixed(2)}x lower`,
      );
    }
    parts.push(table(`${title}, ${c} connection${c > 1 ? 's' : ''}`, results), ...ratios, '');
  }
  await close();
  return parts.join('\n');
}

/** `--connections` as counts. */
const connectionCounts = (list: string | undefined) => (list ?? '1').split(',').map(Number);

async function main(args: Args): Promise<void> {
  const seconds = args.seconds ?? (args.access ? '30' : '10');
  if (args.export && process.argv.includes('--years')) {
    const years = Number(args.years);
    const text = await runLargeExportBench({
      pgUrl: args['pg-url']!,
      rounds: Number(args.rounds),
      schema: `${args['schema-prefix']}${years}y`,
      only: args.case,
    });
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/export-large.md', text);
    process.stdout.write(`${text}\n`);
    return;
  }
  if (args.export) {
    const text = await runExportBench({ pgUrl: args['pg-url']!, rounds: Number(args.rounds) });
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/export.md', text);
    process.stdout.write(`${text}\n`);
    return;
  }
  if (args.dashboard) {
    const text = await runDashboardBench({ pgUrl: args['pg-url']!, rounds: Number(args.rounds), warmLoads: 3 });
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/dashboard.md', text);
    process.stdout.write(`${text}\n`);
    return;
  }
  if (args.access) {
    const text = await runAccess({
      pgUrl: args['pg-url']!,
      redisUrl: args['redis-url']!,
      seconds: Number(seconds),
      keys: Number(args.keys),
    });
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/access.md', text);
    process.stdout.write(`${text}\n`);
    return;
  }
  const report: string[] = [
    `Benchmark run ${new Date().toISOString()} (connections=${args.connections}, ${seconds} s per case)`,
    '',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'eumarket-bench-'));
  const pgliteDir = join(dir, 'pglite');
  try {
    if (args.large && args.years!.includes(',')) {
      const years = args.years!.split(',').map(Number);
      report.push(
        await runLargeCompare({
          pgUrl: args['pg-url']!,
          years,
          schemaPrefix: args['schema-prefix']!,
          rounds: Number(args.rounds),
          only: args.case,
          sliceMs: 1000,
          yearLoad: !args['skip-ingest'],
          serve,
        }),
      );
    } else if (args.large) {
      const opts = {
        pgUrl: args['pg-url']!,
        years: Number(args.years),
        seconds: Number(seconds),
        connections: connectionCounts(args.connections)[0]!,
      };
      report.push(await runLarge({ ...opts, serve }));
    }
    const full = !args.large && !args.backends;
    if (!args['skip-startup'] && full) {
      execFileSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
      const env = { PGLITE_DIR: pgliteDir, PORT: '0', LOG_LEVEL: 'warn', SEED_DEMO: 'true' };
      const first = await timeStartup(env);
      const restart = await timeStartup(env);
      report.push(
        '### Start-up on the embedded database (spawn to the first /healthz 200; to ready)',
        '',
        `- first start (migrations + demo data): first answer ${first.firstAnswer.toFixed(1)} s, ready ${first.ready.toFixed(1)} s`,
        `- restart: first answer ${restart.firstAnswer.toFixed(1)} s, ready ${restart.ready.toFixed(1)} s`,
        '',
      );
    }
    const log = createLogger({ LOG_LEVEL: 'warn' });
    let pglite: Database | undefined;
    if (!args['skip-pglite'] && !args.large) {
      const config = testConfig({ PGLITE_DIR: pgliteDir, SEED_DEMO: true });
      ({ db: pglite } = await openServerDatabase(config));
      await prepareDatabase(pglite, config, log, new Date());
      if (full) {
        report.push(
          await latency(
            'PGlite (embedded, on disk, on its thread over the wire protocol)',
            pglite,
            seconds,
            connectionCounts(args.connections),
          ),
        );
        report.push(await runTransport('PGlite', pglite, Number(seconds), connectionCounts(args.connections)[0]!));
      }
    }
    if (!args['skip-pg'] && !args.large) {
      const config = testConfig({
        DATABASE_URL: args['pg-url'],
        DATABASE_SCHEMA: 'bench',
        SEED_DEMO: true,
        MIGRATE_ON_START: true,
      });
      const db = await openPostgres(config, args['pg-url']!);
      await prepareDatabase(db, config, log, new Date());
      if (full) {
        report.push(
          await runFloorComparison(db, {
            pgUrl: args['pg-url']!,
            seconds: Number(seconds),
            connections: connectionCounts(args.connections),
            serve,
          }),
        );
        report.push(await runTransport('PostgreSQL 15', db, Number(seconds), connectionCounts(args.connections)[0]!));
      }
      if (args.pgbouncer) {
        const opts = {
          pgUrl: args['pg-url']!,
          config: { DATABASE_SCHEMA: 'bench' },
          cases: PAIRS[0]!,
          seconds: Number(seconds),
          connections: connectionCounts(args.connections),
          serve,
        };
        report.push(await runPoolerComparison(db, opts));
      }
      if (pglite) {
        const opts = {
          cases: PAIRS.flat(),
          seconds: Number(seconds),
          connections: connectionCounts(args.connections),
          serve,
        };
        report.push(await runBackendComparison(pglite, db, opts));
      }
      await db.close();
    }
    await pglite?.close();
    if (!args['skip-ingest'] && full) {
      const lines = await runIngestBench(args['pg-url']!, args['skip-pg']!);
      report.push(
        "### Ingestion: parse + load one year of one zone's 15-minute prices (35,040 points), 3 runs",
        '',
        ...lines.map((l) => `- ${l}`),
        '',
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const text = report.join('\n');
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(`bench-results/${args.large ? 'large' : args.backends ? 'backends' : 'latest'}.md`, text);
  process.stdout.write(`${text}\n`);
}

process.exitCode = await runCommandLine(CLI, process.argv.slice(2), ({ values }) => main(values));
