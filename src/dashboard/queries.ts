/**
 * The dashboard's GraphQL operations, typed by codegen from `queries.graphql`: each is its persisted
 * document id only (the build ships the manifest beside the bundle), so the bundle holds no query text.
 */
import {
  DashboardClockDocument,
  DashboardFlowDurationDocument,
  DashboardFlowSharesDocument,
  DashboardFlowsDocument,
  DashboardFlowsUpdatedDocument,
  DashboardMapHourDocument,
  DashboardPriceKpisDocument,
  DashboardPricesDocument,
  DashboardPricesPublishedDocument,
  DashboardScatterDocument,
  DashboardStartDocument,
  DashboardViewDocument,
  DashboardZoneAnalyticsDocument,
} from './gql/graphql.js';

/** Zones and borders for the pickers, and the server's clock and data sources: the page's first request. */
export const StartQuery = DashboardStartDocument;

/** The server's clock (`resolvedTo` of a range ending `now`) and where its data comes from. */
export const ClockQuery = DashboardClockDocument;

/** One page of prices of some zones over a range, at a given resolution. */
export const PricesQuery = DashboardPricesDocument;

/** One page of hourly classified flows of one border. */
export const FlowsQuery = DashboardFlowsDocument;

/** Daily flow-type shares (percent of assessed hours) of one border. */
export const FlowSharesQuery = DashboardFlowSharesDocument;

/** Every zone's price and every border's classified flow in one UTC hour, for the map. */
export const MapHourQuery = DashboardMapHourDocument;

/** Price statistics per zone over the range. */
export const PriceKpisQuery = DashboardPriceKpisDocument;

/** Daily counter-intuitive share and imports/exports of the zones over the range. */
export const ZoneAnalyticsQuery = DashboardZoneAnalyticsDocument;

/** The flow duration curve of one border over the range. */
export const FlowDurationQuery = DashboardFlowDurationDocument;

/** Hourly flow against price difference of one border, binned, over (at most 14 days of) the range. */
export const ScatterQuery = DashboardScatterDocument;

/** Every panel of a view in one request: the first page of prices and of the border's hourly flows (the rest follow by cursor), tomorrow's native prices (UTC), the zones' KPIs, daily counter-intuitive shares and imports/exports, the border's daily shares, duration curve and scatter, and the map's hour. For ranges the API serves whole (HOURLY up to 14 days, NATIVE up to 2). */
export const ViewQuery = DashboardViewDocument;

/** Live events: prices of any zone were stored. */
export const PricesPublishedSubscription = DashboardPricesPublishedDocument;

/** Live events: flows (or what classifies them) of any border were stored. */
export const FlowsUpdatedSubscription = DashboardFlowsUpdatedDocument;
