import type { EndpointExample } from '../rest/endpoint.js';

type Pagination = { total: number; limit: number; offset: number; next_offset: number | null } | null;

const meta = (
  provenance: 'measured' | 'derived',
  from: string,
  to: string,
  resolution: string | null,
  pagination: Pagination = null,
) => ({
  provenance,
  upstream_sources: ['ENTSO-E Transparency Platform'],
  resolved_datetime_from: from,
  resolved_datetime_to: to,
  resolution,
  pagination,
});

const OCT_20 = { datetime_from: '2025-10-20', datetime_to: '2025-10-21' };
const OCTOBER = { datetime_from: '2025-10-01', datetime_to: '2025-11-01' };
const OCT_20_META = ['2025-10-20T00:00:00', '2025-10-21T00:00:00'] as const;
const OCTOBER_META = ['2025-10-01T00:00:00', '2025-11-01T00:00:00'] as const;

/** GET /api/v1/prices: an hour of quarter-hour prices in DE_LU. */
export const PRICES_EXAMPLE: EndpointExample = {
  query: { zone: ['DE_LU'], datetime_from: '2025-10-20T12:00', datetime_to: '2025-10-20T13:00', resolution: 'native' },
  response: {
    meta: meta('measured', '2025-10-20T12:00:00', '2025-10-20T13:00:00', 'native'),
    data: [
      {
        datetime: '2025-10-20T12:00:00Z',
        bidding_zone: 'DE_LU',
        price_mwh: 11.14,
        interpolated: false,
        year: 2025,
      },
      {
        datetime: '2025-10-20T12:15:00Z',
        bidding_zone: 'DE_LU',
        price_mwh: 9.87,
        interpolated: false,
        year: 2025,
      },
    ],
  },
};

/** GET /api/v1/flows: one border-hour, first page. */
export const FLOWS_EXAMPLE: EndpointExample = {
  query: { border: ['DE_LU->FR'], datetime_from: '2025-10-20T12:00', datetime_to: '2025-10-20T13:00', limit: 100 },
  response: {
    meta: meta('measured', '2025-10-20T12:00:00', '2025-10-20T13:00:00', 'native', {
      total: 1,
      limit: 100,
      offset: 0,
      next_offset: null,
    }),
    data: [
      {
        datetime: '2025-10-20T12:00:00Z',
        bidding_zone_from: 'DE_LU',
        bidding_zone_to: 'FR',
        flow_type: 'convergence',
        flow_interpolated: false,
        net_flow_mw: 2134,
        price_from: 12.895,
        price_to: 12.895,
        price_delta: 0,
        capacity_mw: 2458,
        hours: 1,
      },
    ],
  },
};

/** GET /api/v1/flow-type-summary: one day of DE_LU->FR. */
export const FLOW_TYPE_SUMMARY_EXAMPLE: EndpointExample = {
  query: { border: ['DE_LU->FR'], ...OCT_20 },
  response: {
    meta: meta('derived', ...OCT_20_META, '1D'),
    data: [
      {
        day: '2025-10-20',
        bidding_zone_from: 'DE_LU',
        bidding_zone_to: 'FR',
        convergence: 91.6667,
        congestion: 8.3333,
        counter_intuitive: 0,
        outage: 0,
        hours: 24,
      },
    ],
  },
};

/** GET /api/v1/ci-share: one day of DE_LU. */
export const CI_SHARE_EXAMPLE: EndpointExample = {
  query: { zone: ['DE_LU'], ...OCT_20, resolution: '1D' },
  response: {
    meta: meta('derived', ...OCT_20_META, '1D'),
    data: [{ day: '2025-10-20T00:00:00Z', zone: 'DE_LU', ci_hours: 1, total_hours: 24, ci_percentage: 4.1667 }],
  },
};

/** GET /api/v1/flow-price-scatter: one bin of DE_LU->FR. */
export const SCATTER_EXAMPLE: EndpointExample = {
  query: { border: ['DE_LU->FR'], ...OCT_20, flow_bin_mw: 100, price_bin: 1 },
  response: {
    meta: meta('derived', ...OCT_20_META, 'native'),
    data: [{ bidding_zone_from: 'DE_LU', bidding_zone_to: 'FR', net_flow_mw: -3400, price_delta: -24, count: 1 }],
  },
};

/** GET /api/v1/flow-duration: the first point of a five-point curve. */
export const DURATION_EXAMPLE: EndpointExample = {
  query: { border: ['DE_LU->FR'], ...OCTOBER, points: 5 },
  response: {
    meta: meta('derived', ...OCTOBER_META, null),
    data: [
      { series: 'DE_LU->FR', series_type: 'border', percentage: 0, flow_mw: 2746.5 },
      { series: 'DE_LU->FR', series_type: 'border', percentage: 25, flow_mw: 1210.3 },
    ],
  },
};

/** GET /api/v1/price-kpis: October for DE_LU. */
export const PRICE_KPIS_EXAMPLE: EndpointExample = {
  query: { zone: ['DE_LU'], ...OCTOBER },
  response: {
    meta: meta('derived', ...OCTOBER_META, null),
    data: [
      {
        bidding_zone: 'DE_LU',
        mean_price: 54.5686,
        min_price: -25.9275,
        max_price: 131.315,
        std_price: 27.522,
        p05_price: 7.1069,
        median_price: 54.8213,
        p95_price: 103.2651,
        peak_mean_price: 49.3893,
        offpeak_mean_price: 57.623,
        negative_hours: 20,
        hours: 744,
        interpolated_hours: 2,
        series_zones: ['DE_LU'],
      },
    ],
  },
};

/** GET /api/v1/zone-import-export: October for DE_LU. */
export const ZONE_IMPORT_EXPORT_EXAMPLE: EndpointExample = {
  query: { zone: ['DE_LU'], ...OCTOBER },
  response: {
    meta: meta('derived', ...OCTOBER_META, null),
    data: [
      {
        zone: 'DE_LU',
        import_mwh: 5000198.5,
        export_mwh: 7387262.6,
        net_export_mwh: 2387064.1,
        peak_import_mw: 27689,
        peak_export_mw: 24817.8,
        net_importer_hours: 291,
        net_exporter_hours: 453,
      },
    ],
  },
};

const CATALOGUE_META = {
  provenance: 'derived',
  upstream_sources: ['ENTSO-E Transparency Platform'],
  resolved_datetime_from: null,
  resolved_datetime_to: null,
  resolution: null,
  pagination: null,
};
const coverage = (from: string, to: string, resolution: string | null) => ({
  datetime_from: from,
  datetime_to: to,
  native_resolution: resolution,
  sources: ['ENTSO-E Transparency Platform'],
});

/** GET /api/v1/zones: one zone with its neighbours and price coverage. */
export const ZONES_EXAMPLE: EndpointExample = {
  query: { zone: ['DE_LU'] },
  response: {
    meta: CATALOGUE_META,
    data: [
      {
        zone: 'DE_LU',
        eic: '10Y1001A1001A82H',
        name: 'Germany-Luxembourg',
        time_zone: 'Europe/Berlin',
        neighbours: ['AT', 'BE', 'CH', 'CZ', 'DK_1', 'DK_2', 'FR', 'NL', 'NO_2', 'PL', 'SE_4'],
        coverage: { prices: coverage('2024-09-01T00:00:00Z', '2025-11-07T00:00:00Z', 'PT15M') },
        valid_from: '2018-09-30T22:00:00Z',
        valid_to: null,
        predecessors: ['DE_AT_LU'],
        successors: [],
      },
    ],
  },
};

/** GET /api/v1/borders: one border with its coverage per data kind. */
export const BORDERS_EXAMPLE: EndpointExample = {
  query: { border: ['DE_LU->FR'] },
  response: {
    meta: CATALOGUE_META,
    data: [
      {
        border: 'DE_LU->FR',
        zone_a: 'DE_LU',
        zone_b: 'FR',
        coverage: {
          physical_flows: coverage('2024-09-01T00:00:00Z', '2025-11-05T12:00:00Z', 'PT60M'),
          scheduled_flows: coverage('2024-09-01T00:00:00Z', '2025-11-07T00:00:00Z', 'PT60M'),
          ntc: coverage('2024-09-01T00:00:00Z', '2025-11-07T00:00:00Z', 'PT60M'),
          outages: null,
        },
        valid_from: '2018-09-30T22:00:00Z',
        valid_to: null,
      },
    ],
  },
};
