import type { z } from 'zod';
import type { RowContract } from '../contract/fields.js';
import { jsonTexts, type RowTimeZone, wireRowOf } from '../contract/json.js';
import type { RowBatches, Rows } from '../domain/row-batches.js';
import { type Chunks, type RowWriter, writeRows } from './chunks.js';
import { rowSchema } from '../contract/zod.js';
import type { ServiceDeps } from '../services/context.js';
import type { Meta } from '../services/meta.js';
import type { ReadData } from '../http/cache-tags.js';
import { inputOf, type InputOf, namedOn, type ParamRef } from '../contract/params.js';
import { restQuery } from './params.js';

/**
 * Rows a handler serialised itself, for large pages: `chunks()` yields the JSON texts of
 * consecutive rows (objects of the endpoint's row schema, comma-separated inside a chunk, no
 * brackets), exactly as `JSON.stringify` writes them. The router streams the chunks as they are
 * produced, so the response never exists as one string next to the rows it came from; rows in
 * batches ({@link RowBatches}) are written as each batch is read.
 */
export class JsonRows {
  constructor(
    readonly chunks: () => Chunks<string>,
    /** The domain rows and their contract, from which the other formats (CSV, Arrow) are written. */
    readonly table: RowTable,
  ) {}
}

/** Domain rows with the contract that writes them. */
export interface RowTable {
  readonly contract: RowContract<any>;
  readonly rows: Rows<unknown>;
  /** Under `tz`: the IANA zone each row's instants and days are written in. */
  readonly rowTimeZone?: RowTimeZone<any> | undefined;
}

/** A realistic request and its response, shown in the OpenAPI document. */
export interface EndpointExample {
  /** Query parameters, typed as their schemas (repeated parameters as arrays, numbers as numbers). */
  readonly query: Readonly<Record<string, string | number | readonly string[]>>;
  /** The response body: the envelope with meta and a row or two. */
  readonly response: {
    readonly meta: Readonly<Record<string, unknown>>;
    readonly data: readonly Readonly<Record<string, unknown>>[];
  };
}

/** How an endpoint is named and shown in the OpenAPI document; every field has a default. */
export interface EndpointDocs {
  /** OpenAPI operationId; default `get` + the path's last segment in PascalCase (`getFlowTypeSummary`). */
  readonly operationId?: string;
  /** OpenAPI tag grouping the operation; default the path's last segment in Title Case (`Zones`). */
  readonly tag?: string;
  readonly example?: EndpointExample;
}

/** A REST endpoint: its query and row schemas feed both the handler and the OpenAPI document. */
export interface Endpoint extends EndpointDocs {
  readonly path: string;
  /** The stored data its answers are computed from: their cache tags (see http/cache-tags.ts). */
  readonly reads: readonly ReadData[];
  readonly summary: string;
  readonly description: string;
  /** Its declared parameters (contract/params.ts), from which `query` derives; the MCP tools derive from them too (absent: none). */
  readonly params?: readonly ParamRef[];
  readonly query: z.ZodObject;
  readonly row: z.ZodObject;
  /** The meta and rows of a valid query (parsed by `query`). */
  readonly handle: (
    deps: ServiceDeps,
    query: Readonly<Record<string, unknown>>,
  ) => Promise<{ meta: Meta; data: JsonRows }>;
}

/** An endpoint as declared: its parameters and rows are declared in contract/, its rows written by their contract. */
export interface RowsEndpointSpec<P extends readonly ParamRef[], R> extends EndpointDocs {
  readonly path: string;
  /** The stored data its answers are computed from: their cache tags (see http/cache-tags.ts). */
  readonly reads: readonly ReadData[];
  readonly summary: string;
  readonly description: string;
  /** Its query parameters, in documentation order; their values reach `rows` as service input. */
  readonly params: P;
  /** Row contract: the OpenAPI row schema and the JSON of each row. */
  readonly contract: RowContract<R>;
  /** The contract that writes the rows of one request when its input changes the row shape (default: `contract`). */
  readonly contractOf?: (input: InputOf<P>) => RowContract<R>;
  /** The rows; under `tz`, `rowTimeZone` gives the IANA zone each row's instants are written in. */
  readonly rows: (
    deps: ServiceDeps,
    input: InputOf<P>,
  ) => Promise<{ meta: Meta; rows: Rows<R>; rowTimeZone?: RowTimeZone<R> }>;
}

/** Declares an endpoint whose query schema derives from its parameters and whose row schema and serialiser derive from its row contract. */
export function rowsEndpoint<const P extends readonly ParamRef[], R>(spec: RowsEndpointSpec<P, R>): Endpoint {
  const { contract: declared, contractOf, rows, params, ...rest } = spec;
  return {
    ...rest,
    params,
    query: restQuery(params),
    row: rowSchema(declared),
    async handle(deps, query) {
      const input = inputOf(params, 'rest', query);
      const contract = contractOf?.(input) ?? declared;
      const result = await namedOn('rest', params, () => rows(deps, input));
      return {
        meta: result.meta,
        data: new JsonRows(() => writeRows(result.rows, jsonWriter(contract, result.rowTimeZone)), {
          contract,
          rows: result.rows,
          rowTimeZone: result.rowTimeZone,
        }),
      };
    },
  };
}

/** How JSON rows are written: {@link jsonTexts} of each run of rows, one wire row maker for all of them. */
function jsonWriter<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): RowWriter<R, string> {
  const wire = wireRowOf(contract, zoneOf);
  return { rows: (rows) => jsonTexts(wire, rows) };
}
