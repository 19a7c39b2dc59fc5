import { graphql } from './gql/index.js';

/** Zones and borders for the pickers. */
export const CatalogueQuery = graphql(`
  query DashboardCatalogue {
    zones { code name }
    borders { key zoneA { code } zoneB { code } }
  }
`);

/** The server's clock (`resolvedTo` of a range ending `now`) and where its data comes from. */
export const ClockQuery = graphql(`
  query DashboardClock {
    clock: priceKpis(from: "now-1m", to: "now") { meta { resolvedTo upstreamSources } }
  }
`);

/** One page of prices of some zones over a range, at a given resolution. */
export const PricesQuery = graphql(`
  query DashboardPrices($zones: [String!]!, $from: String!, $to: String!, $resolution: Resolution!, $first: Int!, $after: String) {
    prices(zones: $zones, from: $from, to: $to, resolution: $resolution, first: $first, after: $after) {
      edges { node { biddingZone datetime priceEurMwh } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** One page of hourly classified flows of one border. */
export const FlowsQuery = graphql(`
  query DashboardFlows($border: String!, $from: String!, $to: String!, $first: Int!, $after: String) {
    flows(borders: [$border], from: $from, to: $to, resolution: HOURLY, first: $first, after: $after) {
      edges { node { datetime biddingZoneFrom biddingZoneTo flowType netFlowMw } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** Daily flow-type shares (percent of assessed hours) of one border. */
export const FlowSharesQuery = graphql(`
  query DashboardFlowShares($border: String!, $from: String!, $to: String!) {
    flowTypeSummary(borders: [$border], from: $from, to: $to, resolution: DAILY) {
      rows { day convergence congestion counterIntuitive outage hours }
    }
  }
`);
