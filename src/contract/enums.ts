import type { RequestedResolution, Resolution } from '../domain/resolution.js';
import type { FlowType } from '../domain/classification.js';
import type { Provenance } from '../services/meta.js';

/** One value of an enum: its GraphQL name and its meaning. */
export interface EnumValueDoc {
  readonly graphql: string;
  readonly description: string;
}

/**
 * An enum declared once: its values in REST spelling (the keys, in documentation order) with their
 * GraphQL names and meanings, from which the GraphQL enum type and the REST value lists are made.
 */
export interface EnumDecl<V extends string> {
  /** Name of the GraphQL enum type. */
  readonly graphql: string;
  readonly description: string;
  readonly values: { readonly [K in V]: EnumValueDoc };
}

/** The REST spellings of an enum's values, in declaration order. */
export const enumValues = <V extends string>(e: EnumDecl<V>): [V, ...V[]] => Object.keys(e.values) as [V, ...V[]];

/** The GraphQL name of a value (the value itself when it is not one of the enum's). */
export const graphqlValueName = (e: EnumDecl<string>, value: unknown): unknown =>
  (e.values as Record<string, EnumValueDoc>)[String(value)]?.graphql ?? value;

/** The `resolution` a request asks for (docs/contract.md#resolution). */
export const REQUESTED_RESOLUTION: EnumDecl<RequestedResolution> = {
  graphql: 'Resolution',
  description:
    'Requested aggregation. AUTO picks by range width (<= 2 days NATIVE, <= 14 days HOURLY, <= 90 days DAILY, else WEEKLY). Buckets are UTC; WEEKLY buckets are ISO weeks from Monday 00:00 UTC; aggregates are time-weighted means.',
  values: {
    auto: { graphql: 'AUTO', description: 'Choose by range width.' },
    native: { graphql: 'NATIVE', description: 'Values as published (15-minute or hourly).' },
    '1H': { graphql: 'HOURLY', description: 'UTC hours (REST 1H).' },
    '1D': { graphql: 'DAILY', description: 'UTC days (REST 1D).' },
    '1W': { graphql: 'WEEKLY', description: 'ISO weeks, Monday 00:00 UTC (REST 1W).' },
  },
};

/** The resolution a response applied (meta.resolution). */
export const APPLIED_RESOLUTION: EnumDecl<Resolution> = {
  graphql: 'AppliedResolution',
  description: 'Resolution the server applied (REST meta.resolution: native, 1H, 1D, 1W).',
  values: {
    native: {
      graphql: 'NATIVE',
      description: 'Values as published: 15-minute or hourly prices, hourly flows (REST native).',
    },
    '1H': {
      graphql: 'HOURLY',
      description: 'UTC hours; prices are time-weighted means of the native values (REST 1H).',
    },
    '1D': { graphql: 'DAILY', description: 'UTC days from 00:00 UTC (REST 1D).' },
    '1W': { graphql: 'WEEKLY', description: 'ISO weeks from Monday 00:00 UTC (REST 1W).' },
  },
};

/** How the values of a response came to be (meta.provenance, docs/contract.md#envelope-and-meta). */
export const PROVENANCE: EnumDecl<Provenance> = {
  graphql: 'Provenance',
  description: 'MEASURED: upstream observations; DERIVED: computed from other signals.',
  values: {
    measured: {
      graphql: 'MEASURED',
      description: 'Upstream observations: prices, measured physical flows (REST measured).',
    },
    derived: {
      graphql: 'DERIVED',
      description:
        'Computed: every aggregate, and flows where a physical flow was missing and the scheduled exchange stood in (REST derived).',
    },
  },
};

/** The four flow types (docs/contract.md#flow-classification) (REST flow_type). */
export const FLOW_TYPE: EnumDecl<FlowType> = {
  graphql: 'FlowType',
  description: 'Classification of a border-hour against the price gradient.',
  values: {
    convergence: {
      graphql: 'CONVERGENCE',
      description:
        'Power moves toward the higher price below the capacity limit, or prices are equal within eps (default 0.01 EUR/MWh).',
    },
    congestion: {
      graphql: 'CONGESTION',
      description: 'Power moves toward the higher price at >= 97 % of the NTC of that direction.',
    },
    counter_intuitive: {
      graphql: 'COUNTER_INTUITIVE',
      description: 'Power leaves the higher-price zone for the lower-price one (spread < -eps, EUR/MWh).',
    },
    outage: { graphql: 'OUTAGE', description: 'The border was unavailable (outage record, or zero NTC both ways).' },
  },
};

/** Which flow is classified (GraphQL only: REST /flows classifies physical flows). */
export const FLOW_BASIS: EnumDecl<'physical' | 'scheduled'> = {
  graphql: 'FlowBasis',
  description:
    'PHYSICAL: measured physical flows (ENTSO-E A11; scheduled exchanges where missing, marked derived). SCHEDULED: day-ahead scheduled commercial exchanges (A09), the basis of the literature on counter-intuitive flows.',
  values: {
    physical: {
      graphql: 'PHYSICAL',
      description:
        'Measured physical flows (A11); hours without one use the scheduled exchange and are marked derived.',
    },
    scheduled: {
      graphql: 'SCHEDULED',
      description:
        'Day-ahead scheduled commercial exchanges (A09), classified by the same rules; rows are never derived.',
    },
  },
};

/** What the price KPIs are statistics of (REST and GraphQL `basis` of /price-kpis). */
export const PRICE_BASIS: EnumDecl<'hourly' | 'native'> = {
  graphql: 'PriceBasis',
  description:
    'HOURLY: statistics of the hourly time-weighted mean prices (UTC hours), each hour counting once. NATIVE: statistics of the prices as published (15-minute or hourly periods), time-weighted: a 60-minute price counts as four quarter-hours.',
  values: {
    hourly: {
      graphql: 'HOURLY',
      description: 'Hourly time-weighted means, one sample per UTC hour; hour counts are whole hours (REST hourly).',
    },
    native: {
      graphql: 'NATIVE',
      description:
        'Published periods weighted by their duration: real 15-minute extremes; hour counts are durations in hours, e.g. 0.75 (REST native).',
    },
  },
};
