/**
 * REST and GraphQL names side by side, written out by hand rather than read from the declarations,
 * so the tests comparing the two surfaces check the code against a table of their own
 * (docs/api-names.md is the same table for readers).
 */

/** The GraphQL root field of each REST endpoint. */
export const FIELD_OF_PATH: Readonly<Record<string, string>> = {
  '/api/v1/prices': 'prices',
  '/api/v1/flows': 'flows',
  '/api/v1/flow-type-summary': 'flowTypeSummary',
  '/api/v1/ci-share': 'ciShare',
  '/api/v1/flow-price-scatter': 'flowPriceScatter',
  '/api/v1/flow-duration': 'flowDuration',
  '/api/v1/price-kpis': 'priceKpis',
  '/api/v1/zone-import-export': 'zoneImportExport',
  '/api/v1/zones': 'zones',
  '/api/v1/borders': 'borders',
};

/** The REST endpoint of a GraphQL root field. */
export function pathOfField(field: string): string {
  const path = Object.keys(FIELD_OF_PATH).find((p) => FIELD_OF_PATH[p] === field);
  if (!path) throw new Error(`no REST endpoint for the GraphQL field ${field}`);
  return path;
}

/** The REST name of each GraphQL argument named differently; the others have one name. */
export const REST_NAME: Readonly<Record<string, string>> = {
  from: 'datetime_from',
  to: 'datetime_to',
  borders: 'border',
  zones: 'zone',
  flowTypes: 'flow_type',
  flowBinMw: 'flow_bin_mw',
  priceBin: 'price_bin',
  timeZone: 'tz',
};
