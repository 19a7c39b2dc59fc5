/**
 * The floor of the latency bench: a bare node:http server with its own `pg` pool that answers the
 * measured requests with the statements the repositories issue for them (built by the same
 * repository functions, so they cannot drift), prepared by name as the app prepares them, their
 * rows taken out of the driver's result as the app takes them (`takeRows`), and
 * writes the driver rows with one JSON.stringify; the upstream sources are kept as the app keeps them
 * (the data does not change during a run). No validation, no contract mapping, no
 * middleware: what is left is the database round trips, the driver and the socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import type { RequestedResolution } from '../src/domain/resolution.js';
import { sessionOptions, statementName, takeRows } from '../src/db/client.js';
import { readFlowOffsetPage } from '../src/repositories/flows/positions.js';
import { flowRowsStatement } from '../src/repositories/flows/read-rows.js';
import { flowSourcesStatement } from '../src/repositories/flows/sources.js';
import { pricesStatement, priceSourcesStatement, type PriceQuery } from '../src/repositories/prices/rows.js';
import { createReadMemo, statementKey } from '../src/repositories/sql/read-memo.js';
import type { ServiceDeps } from '../src/services/context.js';
import { resolveFlowSelection } from '../src/services/flow-filter.js';
import { resolvePriceQuery } from '../src/services/prices.js';
import { type Loopback, listenOnLoopback } from './loopback.js';

/** A statement as the repositories build it. */
interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

/** What the floor answers on a path: the REST request it stands for, as service input. */
export type FloorRoute =
  | {
      readonly kind: 'prices';
      readonly zones?: string[];
      readonly datetimeFrom?: string;
      readonly resolution?: RequestedResolution;
    }
  | {
      readonly kind: 'flows';
      readonly datetimeFrom: string;
      readonly resolution: RequestedResolution;
      readonly limit: number;
    };

const json = (res: ServerResponse, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** What the floor answers for a route: the JSON body it writes, and the resolved range and resolution. */
export interface FloorAnswer {
  readonly body: {
    readonly meta: { readonly upstream_sources: string[]; readonly total?: number };
    readonly data: unknown[];
  };
  readonly range: { readonly from: Date; readonly to: Date };
  readonly resolution: string;
}

/** The floor's statements over its own `pg` pool: what a route's request reads, and nothing more. */
export interface FloorSource {
  answer(route: FloorRoute): Promise<FloorAnswer>;
  close(): Promise<void>;
}

/**
 * The floor's reads over `url` (schema `schema`). `deps` gives the catalogue and clock with which
 * the request's zones and range are resolved, as the services resolve them (no query).
 */
export function openFloorSource(url: string, schema: string, deps: Omit<ServiceDeps, 'db'>): FloorSource {
  const pool = new pg.Pool({ connectionString: url, max: 10, options: sessionOptions(schema, 30_000) });
  const run = async <T>(s: Statement): Promise<T[]> =>
    takeRows<T>(await pool.query({ name: statementName(s.text), text: s.text, values: s.values }));
  const sdeps = { ...deps, db: undefined as never } as ServiceDeps;
  const memo = createReadMemo();
  const sources = (s: Statement) =>
    memo.get(statementKey(s), async () => (await run<{ source: string }>(s)).map((r) => r.source));

  const prices = async (route: Extract<FloorRoute, { kind: 'prices' }>): Promise<FloorAnswer> => {
    const r = resolvePriceQuery(sdeps, route);
    const q: PriceQuery = {
      zoneIds: r.zoneIds,
      allZones: r.allZones,
      from: r.range.from,
      to: r.range.to,
      resolution: r.resolution,
    };
    const [data, upstream] = await Promise.all([run(pricesStatement(q)), sources(priceSourcesStatement(q))]);
    return { body: { meta: { upstream_sources: upstream }, data }, range: r.range, resolution: r.resolution };
  };
  const flows = async (route: Extract<FloorRoute, { kind: 'flows' }>): Promise<FloorAnswer> => {
    const sel = resolveFlowSelection(sdeps, route);
    const q = { ...sel.filter, resolution: sel.resolution };
    const [page, upstream] = await Promise.all([
      readFlowOffsetPage({ positions: run, index: run }, q, { offset: 0, limit: route.limit }),
      sources(flowSourcesStatement(sel.filter)),
    ]);
    const data = page.rows ? await run(flowRowsStatement(page.rows)) : [];
    return {
      body: { meta: { upstream_sources: upstream, total: page.total }, data },
      range: sel.range,
      resolution: sel.resolution,
    };
  };
  return {
    answer: (route) => (route.kind === 'prices' ? prices(route) : flows(route)),
    close: () => pool.end(),
  };
}

/** Starts the floor on loopback over `url` (schema `schema`), answering `routes` (path -> route); `deps` as {@link openFloorSource}. */
export async function startFloor(
  url: string,
  schema: string,
  deps: Omit<ServiceDeps, 'db'>,
  routes: Record<string, FloorRoute>,
): Promise<Loopback> {
  const source = openFloorSource(url, schema, deps);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    source.answer(route).then(
      (answer) => json(res, answer.body),
      (error: unknown) => {
        res.writeHead(500).end(String(error));
      },
    );
  };
  return listenOnLoopback(handle, () => source.close());
}
