/**
 * The server under test of the access bench (bench/access.ts): `dist/src/main.js` (the sources
 * through tsx when this module runs from them) in a child process, so
 * the load driver never shares its event loop, and its process metrics read from `/metrics`.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** A running server child. */
export interface ServerChild {
  /** `http://127.0.0.1:<port>` as the server printed it. */
  readonly base: string;
  /** Log lines the server wrote to stdout or stderr at level warn or above, plus any non-JSON stderr. */
  readonly warnings: string[];
  /**
   * Live heap and RSS after a forced full garbage collection (bench/heap-probe.ts), bytes, and the
   * event loop's delay since the previous call (max and p99, ms).
   */
  liveMemory(timeoutMs?: number): Promise<LiveMemory>;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`); resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<string>;
}

/** What bench/heap-probe.ts prints. */
export interface LiveMemory {
  readonly heapUsed: number;
  readonly rss: number;
  readonly loopMaxMs: number;
  readonly loopP99Ms: number;
}

/** Environment variables the child inherits from this process; everything else comes from `env`. */
const INHERITED = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];
const URL_LINE = /REST API:\s+(http:\/\/[^\s/]+)\/[\s\S]*^Ready: /m;
const PROBE_LINE = /^heap-probe (\{.*\})$/m;
/** Run from the sources by tsx: the sources; from the build (`npm run bench`): the compiled server. */
const FROM_SOURCES = new URL(import.meta.url).pathname.endsWith('.ts');
/** The server's arguments after `--expose-gc`, relative to the project root (the working directory). */
const SERVER_ARGS = FROM_SOURCES
  ? ['--import', 'tsx', '--import', './bench/heap-probe.ts', 'src/main.ts']
  : ['--import', './dist/bench/heap-probe.js', 'dist/src/main.js'];

/** The server's command line, as the report prints it. */
export const SERVER_COMMAND = ['node', '--expose-gc', ...SERVER_ARGS].join(' ');

/**
 * Spawns {@link SERVER_COMMAND} with only `env` (plus PATH, HOME and the like), so settings
 * exported in the calling shell cannot change the server's configuration, and resolves once it
 * prints its URLs and is ready. @throws Error when it exits or stays silent for `timeoutMs`.
 */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 300_000,
  nodeArgs: readonly string[] = [],
): Promise<ServerChild> {
  const inherited = Object.fromEntries(INHERITED.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
  const args = ['--expose-gc', ...nodeArgs, ...SERVER_ARGS];
  const child = spawn(process.execPath, args, { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const warnings: string[] = [];
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  collectWarnings(child.stdout, child.stderr, warnings);
  let stdout = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = URL_LINE.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${how}) before it was up: ${warnings.slice(-5).join('\n')}`));
    });
  }).catch(async (err: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw err;
  });
  return {
    base,
    warnings,
    liveMemory(probeTimeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => done(new Error('no heap-probe answer')), probeTimeoutMs);
        const onData = (d: Buffer) => {
          out += d.toString();
          const match = PROBE_LINE.exec(out);
          if (!match?.[1]) return;
          const probe = JSON.parse(match[1]) as LiveMemory & { collected: boolean };
          done(probe.collected ? undefined : new Error('gc() is not exposed in the server'), probe);
        };
        const done = (err?: Error, probe?: LiveMemory) => {
          clearTimeout(timer);
          child.stdout.off('data', onData);
          if (err || !probe) reject(err);
          else
            resolve({
              heapUsed: probe.heapUsed,
              rss: probe.rss,
              loopMaxMs: probe.loopMaxMs,
              loopP99Ms: probe.loopP99Ms,
            });
        };
        child.stdout.on('data', onData);
        child.kill('SIGUSR2');
      });
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.kill('SIGTERM');
      const how = await exited;
      clearTimeout(timer);
      return how;
    },
  };
}

/** Keeps the lines at pino level warn (40) or above, and stderr lines that are not JSON logs. */
function collectWarnings(stdout: Readable, stderr: Readable, into: string[]): void {
  const scan = (fromStderr: boolean) => (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (!line.trim()) continue;
      let level: unknown;
      try {
        level = (JSON.parse(line) as { level?: unknown }).level;
      } catch {
        if (fromStderr) into.push(line);
        continue;
      }
      if (typeof level === 'number' && level >= 40) into.push(line);
    }
  };
  stdout.on('data', scan(false));
  stderr.on('data', scan(true));
}

/** Process figures of the server, from one scrape of `/metrics`. */
export interface ProcessSample {
  /** Milliseconds since the load started (negative before it). */
  readonly t: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly cpuSeconds: number;
  /** p99 event loop delay over the interval since the previous scrape, in ms. */
  readonly loopDelayP99Ms: number;
  /** HTTP status of the scrape (200 expected: /metrics is not metered). */
  readonly status: number;
  /** Accepted (200) GET /api/v1/prices answered so far, as the server's own latency histogram counts them: all, and within 50 ms. */
  readonly served: { readonly total: number; readonly within50Ms: number };
  /** Queries waiting for a database connection at the scrape. */
  readonly poolWaiting: number;
}

/** The cumulative count of `bucket` of the histogram series whose labels include every one of `labels`. */
export function bucketCount(body: string, name: string, labels: readonly string[], le: string): number {
  const wanted = [...labels, `le="${le}"`];
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`)) continue;
    const close = line.indexOf('} ');
    const set = line.slice(name.length + 8, close).split(',');
    if (wanted.every((l) => set.includes(l))) return Number(line.slice(close + 2));
  }
  return 0;
}

/** The value of an unlabelled sample of the Prometheus text `body`, NaN when absent. */
export function metricValue(body: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(body);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]);
}

const PRICES_200 = ['method="GET"', 'route="/api/v1/prices"', 'status="200"'];

/** Scrapes `/metrics` once (its own connection, outside the load driver's pool). */
export async function sampleProcess(base: string, t: number): Promise<ProcessSample> {
  const res = await fetch(`${base}/metrics`);
  const body = await res.text();
  return {
    t,
    status: res.status,
    rssBytes: metricValue(body, 'process_resident_memory_bytes'),
    heapUsedBytes: metricValue(body, 'nodejs_heap_size_used_bytes'),
    cpuSeconds: metricValue(body, 'process_cpu_seconds_total'),
    loopDelayP99Ms: metricValue(body, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    served: {
      total: bucketCount(body, 'http_request_duration_seconds', PRICES_200, '+Inf'),
      within50Ms: bucketCount(body, 'http_request_duration_seconds', PRICES_200, '0.05'),
    },
    poolWaiting: metricValue(body, 'db_pool_waiting_requests'),
  };
}
