/**
 * Issue 46 item 3, replayed against the server in a child process on the embedded engine (demo data):
 * 200 concurrent `/api/v1/flows?resolution=1H&limit=20000` pages over 14 days from one address, then
 * 300 clients (distinct addresses) that never read. Reports /healthz latency (max, p99) during each,
 * RSS before, during (peak) and after, and the answers by status. Run: `npx tsx bench/slow-clients.ts`.
 */
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { type ServerChild, sampleProcess, startServer } from './access-server.js';

const PAGES = 200;
const NON_READERS = 300;
const IDLE_WRITE_TIMEOUT_MS = 5_000;
const HOLD_MS = 12_000;
const DAY_MS = 86_400_000;
/** glibc allocator settings passed on to the server when set (their effect on the RSS kept is measured). */
const MALLOC_ENV = ['MALLOC_ARENA_MAX', 'MALLOC_TRIM_THRESHOLD_'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

function pagePath(): string {
  const to = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const from = new Date(to.getTime() - 14 * DAY_MS);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return `/api/v1/flows?datetime_from=${day(from)}&datetime_to=${day(to)}&resolution=1H&limit=20000`;
}

/** Asks /healthz one after another until stopped; resolves with the latencies, ms (a failed probe counts as Infinity). */
function probeHealth(base: string): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/healthz`, { headers: { connection: 'close' } });
        await res.arrayBuffer();
        times.push(res.status === 200 ? performance.now() - t0 : Number.POSITIVE_INFINITY);
      } catch {
        times.push(Number.POSITIVE_INFINITY);
      }
      await sleep(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

/** Samples the server's RSS every half second until stopped; resolves with the peak, bytes. */
function sampleRss(base: string): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, (await sampleProcess(base, 0).catch(() => ({ rssBytes: 0 }))).rssBytes);
      await sleep(500);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN;
  const failed = sorted.filter((t) => t === Number.POSITIVE_INFINITY).length;
  return `/healthz n=${sorted.length} failed ${failed} max ${sorted.at(-1)?.toFixed(1)} ms p99 ${p99.toFixed(1)} ms`;
}

function count(statuses: readonly string[]): string {
  const by = new Map<string, number>();
  for (const s of statuses) by.set(s, (by.get(s) ?? 0) + 1);
  return [...by].map(([s, n]) => `${s}: ${n}`).join(', ');
}

/** `n` concurrent pages from one address, read in full. */
async function pages(base: string, path: string, n: number): Promise<{ statuses: string[]; bytes: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let bytes = 0;
  const one = () =>
    new Promise<string>((resolve) => {
      get(`${base}${path}`, { agent }, (res) => {
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve('error'));
      }).on('error', () => resolve('error'));
    });
  const statuses = await Promise.all(Array.from({ length: n }, one));
  agent.destroy();
  return { statuses, bytes };
}

/**
 * 300 clients, one address each, that send the page's request, read their first chunk (the status
 * line) and then never read again; destroyed after `HOLD_MS`.
 */
async function nonReaders(base: string, path: string): Promise<string[]> {
  const { hostname, port } = new URL(base);
  const sockets: Socket[] = [];
  const statuses = Array.from({ length: NON_READERS }, () => 'none');
  for (let i = 0; i < NON_READERS; i += 1) {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.${i >> 8}.${i & 255}\r\n\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      statuses[i] = chunk.toString('latin1', 9, 12);
      socket.pause();
    });
    socket.on('error', () => undefined);
    sockets.push(socket);
  }
  await sleep(HOLD_MS);
  for (const s of sockets) s.destroy();
  return statuses;
}

/**
 * The engine's settings: PostgreSQL when `BENCH_DATABASE_URL` is set (schema `BENCH_SCHEMA`, default
 * `bench_slow_clients`, migrated and seeded with the demo data on the first run), else the embedded
 * engine (`BENCH_PGLITE_DIR`, default `memory://`). glibc's `MALLOC_*` settings given to the bench pass on.
 */
function engineEnv(): Record<string, string> {
  const malloc = Object.fromEntries(
    MALLOC_ENV.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k] as string]])),
  );
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return { ...malloc, PGLITE_DIR: process.env.BENCH_PGLITE_DIR ?? 'memory://' };
  const schema = process.env.BENCH_SCHEMA ?? 'bench_slow_clients';
  return { ...malloc, DATABASE_URL: url, DATABASE_SCHEMA: schema, MIGRATE_ON_START: 'true' };
}

/** The load average over the last minute, as `uptime` prints it. */
const load = () => loadavg()[0]?.toFixed(1);

/** One case between two full-GC probes: /healthz latency from here, the server's own event-loop delay and RSS. */
async function measured<T>(server: ServerChild, name: string, run: () => Promise<T>, show: (r: T) => string) {
  const before = await server.liveMemory();
  const health = probeHealth(server.base);
  const peak = sampleRss(server.base);
  const t0 = performance.now();
  const result = await run();
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const [times, peakRss] = [await health.stop(), await peak.stop()];
  const after = await server.liveMemory();
  console.log(
    `${name}: ${seconds} s, ${show(result)}; ${summary(times)}; server event-loop delay max ${after.loopMaxMs.toFixed(0)} ms p99 ${after.loopP99Ms.toFixed(0)} ms; ` +
      `RSS ${mb(before.rss)} -> peak ${mb(Math.max(peakRss, after.rss))} -> ${mb(after.rss)} after a full GC (heap ${mb(after.heapUsed)}); load ${load()}`,
  );
  return result;
}

async function main(): Promise<void> {
  const engine = engineEnv();
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  console.log(
    `engine: ${engine.DATABASE_URL ? `PostgreSQL, schema ${engine.DATABASE_SCHEMA}` : `PGlite ${engine.PGLITE_DIR}`}`,
  );
  const server = await startServer(
    {
      ...engine,
      SEED_DEMO: 'true',
      PORT: process.env.BENCH_PORT ?? '14646',
      LOG_LEVEL: 'warn',
      TRUST_PROXY_HOPS: '1',
      IDLE_WRITE_TIMEOUT_MS: String(IDLE_WRITE_TIMEOUT_MS),
    },
    undefined,
    nodeArgs,
  );
  const path = pagePath();
  try {
    const probe = await fetch(`${server.base}${path}`);
    console.log(`page ${path}: ${probe.status}, ${mb((await probe.text()).length)}`);
    await sleep(2_000);
    await measured(
      server,
      'one page alone',
      () => pages(server.base, path, 1),
      (r) => count(r.statuses),
    );
    await measured(
      server,
      `${PAGES} pages, one address`,
      () => pages(server.base, path, PAGES),
      (r) => `${count(r.statuses)}, ${mb(r.bytes)} read`,
    );
    await measured(
      server,
      `${NON_READERS} non-readers (idle-write ${IDLE_WRITE_TIMEOUT_MS} ms, held ${HOLD_MS} ms, then 5 s)`,
      async () => {
        const statuses = await nonReaders(server.base, path);
        await sleep(5_000);
        return statuses;
      },
      count,
    );
  } finally {
    console.log(`server exit: ${await server.stop()}`);
    if (server.warnings.length) console.log(`server warnings: ${server.warnings.slice(0, 5).join(' | ')}`);
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
