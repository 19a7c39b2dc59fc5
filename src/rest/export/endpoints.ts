import type { z } from 'zod';
import { defineRow, fieldsOf, type RowContract } from '../../contract/fields.js';
import {
  BORDERS,
  FLOW_TYPES,
  inputOf,
  type InputOf,
  LINEAGE,
  namedOn,
  type ParamRef,
  RANGE,
  RESOLUTION,
  TIME_ZONE,
  use,
  ZONES,
} from '../../contract/params.js';
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

function exportEndpoint<const P extends readonly ParamRef[], R>(spec: {
  name: string;
  summary: string;
  description: string;
  params: P;
  contractOf: (input: InputOf<P>) => RowContract<R>;
  rows: (deps: ServiceDeps, input: InputOf<P>) => Promise<ExportRows<R>>;
}): ExportEndpoint {
  return {
    path: `${EXPORT_PREFIX}/${spec.name}`,
    twin: `/api/v1/${spec.name}`,
    name: spec.name,
    summary: spec.summary,
    description: spec.description,
    params: spec.params,
    query: restQuery(spec.params).extend({ format: exportFormatParam }),
    async run(deps, query) {
      const input = inputOf(spec.params, 'rest', query);
      const exported = await namedOn('rest', spec.params, () => spec.rows(deps, input));
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
  name: 'prices',
  summary: 'Export day-ahead prices',
  description: `The rows of /api/v1/prices (EUR/MWh), same parameters and order.${STREAMED}`,
  params: [...RANGE, RESOLUTION, ZONES, TIME_ZONE, LINEAGE],
  contractOf: (input) => (input.lineage === true ? PRICE_LINEAGE_ROW : PRICE_ROW),
  rows: exportPrices,
});

/** GET /api/v1/export/flows. */
export const flowsExport = exportEndpoint({
  name: 'flows',
  summary: 'Export flow classifications',
  description: `The rows of /api/v1/flows (MW, EUR/MWh), every page in order.${STREAMED}`,
  params: [
    ...RANGE,
    RESOLUTION,
    BORDERS,
    use(ZONES, { rest: 'Zone on either side of the border (code or EIC); repeat for several.' }),
    FLOW_TYPES,
    TIME_ZONE,
  ],
  contractOf: () => FLOW_ROW,
  rows: exportFlows,
});

/** GET /api/v1/export/ci-share. */
export const ciShareExport = exportEndpoint({
  name: 'ci-share',
  summary: 'Export counter-intuitive flow share',
  description: `The rows of /api/v1/ci-share (hourly buckets at native and 1H).${STREAMED}`,
  params: [...RANGE, RESOLUTION, ZONES, TIME_ZONE],
  contractOf: () => CI_SHARE_ROW,
  rows: exportCiShare,
});

/** GET /api/v1/export/flow-type-summary. */
export const flowTypeSummaryExport = exportEndpoint({
  name: 'flow-type-summary',
  summary: 'Export the flow-type breakdown',
  description: `The rows of /api/v1/flow-type-summary (never finer than 1D).${STREAMED}`,
  params: [...RANGE, RESOLUTION, BORDERS, TIME_ZONE],
  contractOf: () => FLOW_TYPE_SUMMARY_ROW,
  rows: exportFlowTypeSummary,
});

/** Every export, in documentation order. */
export const EXPORTS: readonly ExportEndpoint[] = [pricesExport, flowsExport, ciShareExport, flowTypeSummaryExport];
