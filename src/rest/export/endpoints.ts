import type { z } from 'zod';
import { defineRow, fieldsOf, type RowContract } from '../../contract/fields.js';
import { declOf, inputOf, type InputOf, LIMIT, namedOn, OFFSET, type ParamRef } from '../../contract/params.js';
import { CI_SHARE_ROW, FLOW_TYPE_SUMMARY_ROW } from '../../contract/rows/flow-aggregates.js';
import { FLOW_ROW } from '../../contract/rows/flows.js';
import { PRICE_LINEAGE_ROW, PRICE_ROW } from '../../contract/rows/prices.js';
import type { ServiceDeps } from '../../services/context.js';
import {
  type Covered,
  type ExportRows,
  exportCiShare,
  exportFlows,
  exportFlowTypeSummary,
  exportPrices,
} from '../../services/export.js';
import { restQuery } from '../params.js';
import type { Endpoint } from '../endpoint.js';
import { ciShareEndpoint, flowTypeSummaryEndpoint } from '../endpoints/flow-aggregates.js';
import { flowsEndpoint } from '../endpoints/flows.js';
import { pricesEndpoint } from '../endpoints/prices.js';
import { exportFormatParam } from './formats.js';

/** Prefix of the export paths. */
export const EXPORT_PREFIX = '/api/v1/export';

/** An export: its twin's parameters (no limit/offset, no range cap) and rows, plus `format`. */
export interface ExportEndpoint {
  readonly path: string;
  /** The `/api/v1` endpoint whose rows it writes. */
  readonly twin: string;
  /** First part of the offered file name. */
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly params: readonly ParamRef[];
  /** The REST query schema, `format` included. */
  readonly query: z.ZodObject;
  /** The rows of a valid query and the contract writing them. */
  readonly run: (
    deps: ServiceDeps,
    query: Readonly<Record<string, unknown>>,
  ) => Promise<{ exported: ExportRows<unknown>; contract: RowContract<Covered<unknown>> }>;
}

const COVERED_DOC = {
  rest: 'covered_hours',
  description:
    'Hours of the bucket inside the requested range: 1 for an hour, 24 for a whole UTC day (23 or 25 for a local day across a DST switch), fewer for a partial first or last bucket. Absent at native resolution.',
} as const;

/** The parameters of a twin without its page (an export writes every row). */
function exportParams(twin: Endpoint): readonly ParamRef[] {
  return (twin.params ?? []).filter((ref) => declOf(ref) !== LIMIT && declOf(ref) !== OFFSET);
}

const withCovered = new WeakMap<RowContract<any>, RowContract<any>>();

/** The twin's row contract, with `covered_hours` after its fields at a bucketed resolution. */
function exportContract<R>(contract: RowContract<R>, bucketed: boolean): RowContract<Covered<R>> {
  if (!bucketed) return contract as RowContract<Covered<R>>;
  let covered = withCovered.get(contract);
  if (!covered) {
    const f = fieldsOf<Covered<R>>();
    covered = defineRow<Covered<R>>({
      ...(contract as RowContract<Covered<R>>),
      fields: [...(contract as RowContract<Covered<R>>).fields, f.float((r) => r.coveredHours, COVERED_DOC)],
    });
    withCovered.set(contract, covered);
  }
  return covered as RowContract<Covered<R>>;
}

/** An export of `twin`'s rows: its parameters are the twin's without the page. */
function exportEndpoint<R>(spec: {
  twin: Endpoint;
  summary: string;
  description: string;
  contractOf: (input: InputOf<readonly ParamRef[]>) => RowContract<R>;
  rows: (deps: ServiceDeps, input: any) => Promise<ExportRows<R>>;
}): ExportEndpoint {
  const name = spec.twin.path.slice(spec.twin.path.lastIndexOf('/') + 1);
  const params = exportParams(spec.twin);
  return {
    path: `${EXPORT_PREFIX}/${name}`,
    twin: spec.twin.path,
    name,
    summary: spec.summary,
    description: spec.description,
    params,
    query: restQuery(params).extend({ format: exportFormatParam }),
    async run(deps, query) {
      const input = inputOf(params, 'rest', query);
      const exported = await namedOn('rest', params, () => spec.rows(deps, input));
      const contract = exportContract(spec.contractOf(input), exported.resolution !== 'native');
      return {
        exported: exported as unknown as ExportRows<unknown>,
        contract: contract as RowContract<Covered<unknown>>,
      };
    },
  };
}

const STREAMED =
  ' Any range at any resolution (native, 1H, 1D, 1W), streamed as it is read; no limit/offset. Bucketed rows add `covered_hours`.';

/** GET /api/v1/export/prices. */
export const pricesExport = exportEndpoint({
  twin: pricesEndpoint,
  summary: 'Export day-ahead prices',
  description: `The rows of /api/v1/prices (EUR/MWh), same parameters and order.${STREAMED}`,
  contractOf: (input) => (input.lineage === true ? PRICE_LINEAGE_ROW : PRICE_ROW),
  rows: exportPrices,
});

/** GET /api/v1/export/flows. */
export const flowsExport = exportEndpoint({
  twin: flowsEndpoint,
  summary: 'Export flow classifications',
  description: `The rows of /api/v1/flows (MW, EUR/MWh), every page in order.${STREAMED}`,
  contractOf: () => FLOW_ROW,
  rows: exportFlows,
});

/** GET /api/v1/export/ci-share. */
export const ciShareExport = exportEndpoint({
  twin: ciShareEndpoint,
  summary: 'Export counter-intuitive flow share',
  description: `The rows of /api/v1/ci-share (hourly buckets at native and 1H).${STREAMED}`,
  contractOf: () => CI_SHARE_ROW,
  rows: exportCiShare,
});

/** GET /api/v1/export/flow-type-summary. */
export const flowTypeSummaryExport = exportEndpoint({
  twin: flowTypeSummaryEndpoint,
  summary: 'Export the flow-type breakdown',
  description: `The rows of /api/v1/flow-type-summary (never finer than 1D).${STREAMED}`,
  contractOf: () => FLOW_TYPE_SUMMARY_ROW,
  rows: exportFlowTypeSummary,
});

/** Every export, in documentation order. */
export const EXPORTS: readonly ExportEndpoint[] = [pricesExport, flowsExport, ciShareExport, flowTypeSummaryExport];
