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
  query DashboardPrices($zones: [String!]!, $from: String!, $to: String!, $resolution: Resolution!, $timeZone: String, $first: Int!, $after: String) {
    prices(zones: $zones, from: $from, to: $to, resolution: $resolution, timeZone: $timeZone, first: $first, after: $after) {
      edges { node { biddingZone datetime priceEurMwh } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** One page of hourly classified flows of one border. */
export const FlowsQuery = graphql(`
  query DashboardFlows($border: String!, $from: String!, $to: String!, $timeZone: String, $first: Int!, $after: String) {
    flows(borders: [$border], from: $from, to: $to, resolution: HOURLY, timeZone: $timeZone, first: $first, after: $after) {
      edges { node { datetime biddingZoneFrom biddingZoneTo flowType netFlowMw } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** Daily flow-type shares (percent of assessed hours) of one border. */
export const FlowSharesQuery = graphql(`
  query DashboardFlowShares($border: String!, $from: String!, $to: String!, $timeZone: String) {
    flowTypeSummary(borders: [$border], from: $from, to: $to, resolution: DAILY, timeZone: $timeZone) {
      rows { day convergence congestion counterIntuitive outage hours }
    }
  }
`);

/** Every zone's price and every border's classified flow in one UTC hour, for the map. */
export const MapHourQuery = graphql(`
  query DashboardMapHour($from: String!, $to: String!) {
    prices(from: $from, to: $to, resolution: HOURLY, first: 500) { edges { node { biddingZone priceEurMwh } } }
    flows(from: $from, to: $to, resolution: HOURLY, first: 1000) { edges { node { biddingZoneFrom biddingZoneTo flowType netFlowMw } } }
  }
`);

/** Price statistics per zone over the range. */
export const PriceKpisQuery = graphql(`
  query DashboardPriceKpis($zones: [String!]!, $from: String!, $to: String!, $timeZone: String) {
    priceKpis(zones: $zones, from: $from, to: $to, timeZone: $timeZone) {
      rows { biddingZone hours meanPrice medianPrice minPrice maxPrice p05Price p95Price stdPrice negativeHours peakMeanPrice offpeakMeanPrice }
    }
  }
`);

/** Daily counter-intuitive share and imports/exports of the zones over the range. */
export const ZoneAnalyticsQuery = graphql(`
  query DashboardZoneAnalytics($zones: [String!]!, $from: String!, $to: String!, $timeZone: String) {
    ciShare(zones: $zones, from: $from, to: $to, resolution: DAILY, timeZone: $timeZone) { rows { biddingZone day ciPercentage ciHours totalHours } }
    zoneImportExport(zones: $zones, from: $from, to: $to, timeZone: $timeZone) {
      rows { biddingZone importMwh exportMwh netExportMwh peakImportMw peakExportMw netExporterHours netImporterHours }
    }
  }
`);

/** The flow duration curve of one border over the range. */
export const FlowDurationQuery = graphql(`
  query DashboardFlowDuration($border: String!, $from: String!, $to: String!, $timeZone: String) {
    flowDuration(borders: [$border], from: $from, to: $to, points: 101, timeZone: $timeZone) { rows { percentage flowMw } }
  }
`);

/** Hourly flow against price difference of one border, binned, over (at most 14 days of) the range. */
export const ScatterQuery = graphql(`
  query DashboardScatter($border: String!, $from: String!, $to: String!, $timeZone: String) {
    flowPriceScatter(borders: [$border], from: $from, to: $to, resolution: HOURLY, flowBinMw: 100, priceBin: 2, timeZone: $timeZone) {
      rows { netFlowMw priceDeltaEurMwh count }
    }
  }
`);

/** Live events: prices of any zone were stored. */
export const PricesPublishedSubscription = graphql(`
  subscription DashboardPricesPublished {
    pricesPublished { zones }
  }
`);

/** Live events: flows (or what classifies them) of any border were stored. */
export const FlowsUpdatedSubscription = graphql(`
  subscription DashboardFlowsUpdated {
    flowsUpdated { borders }
  }
`);
