import autocannon from 'autocannon';

/** One measured request shape. */
export interface BenchCase {
  readonly name: string;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** Server of this case when not the one measured (the floor). */
  readonly base?: string;
  /** Extra request headers (If-None-Match, Accept-Encoding). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Latency (ms, to 0.01 ms) and throughput of one case. */
export interface BenchResult {
  readonly name: string;
  readonly p50: number;
  readonly p95?: number;
  readonly p99: number;
  readonly rps: number;
  readonly errors: number;
  readonly non2xx: number;
}

interface Sample {
  readonly times: number[];
  readonly seconds: number;
  readonly errors: number;
  readonly non2xx: number;
}

type Tracked = autocannon.Instance & PromiseLike<autocannon.Result>;

/**
 * One autocannon run, keeping every 2xx (and 304) response time as autocannon's client measured it
 * (`process.hrtime`, fractional ms): its own histograms round to whole milliseconds.
 */
async function sample(
  base: string,
  c: BenchCase,
  connections: number,
  limit: { duration: number } | { amount: number },
): Promise<Sample> {
  const instance = autocannon({
    url: (c.base ?? base) + c.path,
    method: c.method ?? 'GET',
    body: c.body,
    headers: { ...(c.body ? { 'content-type': 'application/json' } : {}), ...c.headers },
    connections,
    ...limit,
  }) as unknown as Tracked;
  const times: number[] = [];
  instance.on('response', (_client, status, _bytes, ms) => {
    if ((status >= 200 && status < 300) || status === 304) times.push(ms);
  });
  const r = await instance;
  return { times, seconds: r.duration, errors: r.errors, non2xx: r.non2xx };
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]! : NaN;
}

function summarize(name: string, samples: readonly Sample[]): BenchResult {
  const times = samples.flatMap((s) => s.times).sort((a, b) => a - b);
  const seconds = samples.reduce((t, s) => t + s.seconds, 0);
  return {
    name,
    p50: round2(percentile(times, 0.5)),
    p95: round2(percentile(times, 0.95)),
    p99: round2(percentile(times, 0.99)),
    rps: Math.round(times.length / seconds),
    errors: samples.reduce((t, s) => t + s.errors, 0),
    non2xx: samples.reduce((t, s) => t + s.non2xx, 0),
  };
}

/**
 * Measures cases to be compared with each other (REST against GraphQL) against a loopback URL:
 * a warm-up of 20 requests each, then `seconds` of load per case over `connections` connections,
 * as `rounds` slices taken in turn, in alternating order, so that drift in the machine's speed
 * during the run weighs on every case alike.
 */
export async function measureInterleaved(
  base: string,
  cases: readonly BenchCase[],
  seconds: number,
  connections: number,
  rounds = 4,
): Promise<BenchResult[]> {
  for (const c of cases) await sample(base, c, connections, { amount: 20 });
  const samples = cases.map(() => [] as Sample[]);
  for (let round = 0; round < rounds; round++) {
    const order = cases.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) samples[i]!.push(await sample(base, cases[i]!, connections, { duration: seconds / rounds }));
  }
  return cases.map((c, i) => summarize(c.name, samples[i]!));
}

/** GraphQL POST case for a query string. */
export function graphqlCase(name: string, query: string): BenchCase {
  return { name, path: '/graphql', method: 'POST', body: JSON.stringify({ query }) };
}

/** Formats results as a Markdown table. */
export function table(title: string, results: readonly BenchResult[]): string {
  const rows = results.map(
    (r) => `| ${r.name} | ${r.p50} | ${r.p95 ?? ''} | ${r.p99} | ${r.rps} | ${r.errors + r.non2xx} |`,
  );
  return [
    `### ${title}`,
    '',
    '| case | p50 ms | p95 ms | p99 ms | req/s | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
