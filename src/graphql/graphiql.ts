import type { GraphiQLOptions } from 'graphql-yoga';

/**
 * The query GraphiQL opens with: DE_LU day-ahead prices (EUR/MWh, UTC instants) of the last two
 * days, at native resolution (15-minute periods since 2025-10-01), in one page.
 */
export const GRAPHIQL_DEFAULT_QUERY = `# Day-ahead prices of Germany-Luxembourg (DE_LU) over the last 2 days, EUR/MWh, times in UTC.
# Run it with Ctrl-Enter; the Docs panel lists every field (flows, aggregates, zones, borders).
query DeLuPricesLastTwoDays {
  prices(zones: ["DE_LU"], from: "now-2d", to: "now", first: 200) {
    meta { resolution resolvedFrom resolvedTo provenance upstreamSources }
    totalCount
    edges { node { datetime priceEurMwh interpolated } }
  }
}
`;

/** GraphiQL's options: the page title and {@link GRAPHIQL_DEFAULT_QUERY}. */
export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: 'European electricity market API',
  defaultQuery: GRAPHIQL_DEFAULT_QUERY,
};
