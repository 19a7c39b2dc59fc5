import autocannon from 'autocannon';

/** One measured request shape. */
export interface BenchCase {
  readonly name: string;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
}

/** Latency (ms) and throughput of one case. */
export interface BenchResult {
  readonly name: string;
  readonly p50: number;
  readonly p99: number;
  readonly rps: number;
  readonly errors: number;
  readonly non2xx: number;
}

/**
 * Runs one case against a loopback URL with autocannon: a warm-up, then `seconds` of load over
 * `connections` connections. Loopback only; bounded in time.
 */
export async function measure(base: string, c: BenchCase, seconds: number, connections: number): Promise<BenchResult> {
  const opts = {
    url: base + c.path,
    method: c.method ?? 'GET',
    body: c.body,
    headers: c.body ? { 'content-type': 'application/json' } : {},
    connections,
  };
  await autocannon({ ...opts, amount: 20 });
  const r = await autocannon({ ...opts, duration: seconds });
  return { name: c.name, p50: r.latency.p50, p99: r.latency.p99, rps: Math.round(r.requests.average), errors: r.errors, non2xx: r.non2xx };
}

/** GraphQL POST case for a query string. */
export function graphqlCase(name: string, query: string): BenchCase {
  return { name, path: '/graphql', method: 'POST', body: JSON.stringify({ query }) };
}

/** Formats results as a Markdown table. */
export function table(title: string, results: readonly BenchResult[]): string {
  const rows = results.map((r) => `| ${r.name} | ${r.p50} | ${r.p99} | ${r.rps} | ${r.errors + r.non2xx} |`);
  return [`### ${title}`, '', '| case | p50 ms | p99 ms | req/s | errors |', '|---|---|---|---|---|', ...rows, ''].join('\n');
}
