import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { wireRowOf } from '../contract/json.js';
import { FLOW_TYPE } from '../contract/enums.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import { allRows } from '../domain/row-batches.js';
import { AppError } from '../errors.js';
import type { Endpoint } from '../rest/endpoint.js';
import { bordersEndpoint, zonesEndpoint } from '../rest/endpoints/catalogue.js';
import type { ServiceDeps } from '../services/context.js';

/** What a resource is read from: the services, and the classification thresholds the server applies. */
export interface ResourceContext {
  /** The services' dependencies, or their promise while the database is readied (stdio answers `initialize` before). */
  readonly deps: ServiceDeps | Promise<ServiceDeps>;
  readonly thresholds: ClassificationThresholds;
}

interface ResourceDecl extends Resource {
  read(ctx: ResourceContext): Promise<unknown>;
}

/** Every row of a catalogue endpoint (no filter), as REST writes them. */
async function catalogueRows(
  endpoint: Endpoint,
  ready: ServiceDeps | Promise<ServiceDeps>,
): Promise<Record<string, unknown>[]> {
  const { data } = await endpoint.handle(await ready, endpoint.query.parse({}));
  const wire = wireRowOf(data.table.contract, data.table.rowTimeZone);
  return JSON.parse(JSON.stringify((await allRows(data.table.rows)).map(wire))) as Record<string, unknown>[];
}

const pick = (row: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k]]));

/** The resources: catalogue (with validity and lineage), classification rules, data coverage. */
export const RESOURCES: readonly ResourceDecl[] = [
  {
    uri: 'eumarket://catalogue/zones',
    name: 'zones',
    title: 'Bidding zones',
    description:
      'Every bidding zone (current and historical): code, EIC, name, IANA time zone, neighbours, validity [valid_from, valid_to) and lineage (predecessors, successors), with the stored data coverage. Same rows as GET /api/v1/zones.',
    mimeType: 'application/json',
    read: ({ deps }) => catalogueRows(zonesEndpoint, deps),
  },
  {
    uri: 'eumarket://catalogue/borders',
    name: 'borders',
    title: 'Borders',
    description:
      'Every border in stored orientation (zone_a sorts first), with validity and the stored span of physical flows, scheduled exchanges, NTC and outages. Same rows as GET /api/v1/borders.',
    mimeType: 'application/json',
    read: ({ deps }) => catalogueRows(bordersEndpoint, deps),
  },
  {
    uri: 'eumarket://classification/rules',
    name: 'classification-rules',
    title: 'Flow classification rules',
    description:
      'How each border-hour is classified against the price gradient (convergence, congestion, counter_intuitive, outage), with the thresholds this server applies (EUR/MWh, share of NTC, MW).',
    mimeType: 'application/json',
    read: async ({ thresholds }) => ({
      thresholds: {
        eps_eur_mwh: thresholds.epsEurMwh,
        congestion_share: thresholds.congestionShare,
        min_flow_mw: thresholds.minFlowMw,
      },
      flow_types: Object.entries(FLOW_TYPE.values).map(([value, doc]) => ({ flow_type: value, rule: doc.description })),
      notes: [
        'Prices are hourly time-weighted means (EUR/MWh); the spread is price(importing zone) - price(exporting zone).',
        `Prices closer than eps_eur_mwh are equal (coupled zones); a net flow under min_flow_mw MW has no direction.`,
        'A flow at or above congestion_share of the NTC of its direction counts as at its capacity limit.',
      ],
    }),
  },
  {
    uri: 'eumarket://coverage',
    name: 'coverage',
    title: 'Data coverage',
    description:
      'The stored span [datetime_from, datetime_to) of prices per zone and of flows, NTC and outages per border: pass a span as the range of a tool call to get all of it.',
    mimeType: 'application/json',
    read: async ({ deps }) => ({
      zones: (await catalogueRows(zonesEndpoint, deps)).map((z) =>
        pick(z, ['zone', 'valid_from', 'valid_to', 'coverage']),
      ),
      borders: (await catalogueRows(bordersEndpoint, deps)).map((b) =>
        pick(b, ['border', 'valid_from', 'valid_to', 'coverage']),
      ),
    }),
  },
];

/** The contents of a resource. @throws AppError NOT_FOUND for an unknown URI */
export async function readResource(uri: string, ctx: ResourceContext): Promise<ReadResourceResult> {
  const resource = RESOURCES.find((r) => r.uri === uri);
  if (!resource)
    throw new AppError('NOT_FOUND', `Unknown resource ${uri}; resources: ${RESOURCES.map((r) => r.uri).join(', ')}`);
  const body = await resource.read(ctx);
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 1) }] };
}

/** The resource list (without their readers). */
export const resourceList = (): Resource[] => RESOURCES.map(({ read: _read, ...r }) => r);
