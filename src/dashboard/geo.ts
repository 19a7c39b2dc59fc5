/**
 * Where the bidding zones sit on the map: approximate centroids (longitude, latitude in degrees)
 * of every catalogue zone, the sub-national ones (NO_x, SE_x, DK_x, IT_x) placed in their region,
 * and the countries (ISO 3166 numeric, as world-atlas numbers them) a single zone covers.
 */

/** Approximate centroid of each zone, [longitude, latitude], degrees. */
export const ZONE_CENTROIDS: Readonly<Record<string, readonly [number, number]>> = {
  AL: [20.0, 41.1], AT: [14.5, 47.6], BA: [17.8, 44.2], BE: [4.6, 50.6], BG: [25.3, 42.7],
  CH: [8.2, 46.8], CZ: [15.4, 49.8], DE_LU: [10.4, 51.1], DK_1: [9.1, 56.1], DK_2: [12.1, 55.4],
  EE: [25.5, 58.7], ES: [-3.6, 40.2], FI: [26.0, 62.5], FR: [2.5, 46.6], GB: [-1.8, 52.8],
  GR: [22.3, 39.4], HR: [15.9, 45.3], HU: [19.4, 47.2], IE_SEM: [-7.7, 53.5],
  IT_NORD: [10.0, 45.5], IT_CNOR: [11.2, 43.4], IT_CSUD: [13.3, 41.9], IT_SUD: [15.6, 40.8],
  IT_CALA: [16.4, 38.9], IT_SICI: [14.1, 37.5], IT_SARD: [9.0, 40.1],
  LT: [23.9, 55.3], LV: [24.9, 56.9], ME: [19.3, 42.8], MK: [21.7, 41.6], NL: [5.6, 52.2],
  NO_1: [10.9, 60.3], NO_2: [7.3, 58.9], NO_3: [10.8, 63.4], NO_4: [17.5, 68.6], NO_5: [6.2, 60.9],
  PL: [19.4, 52.1], PT: [-8.1, 39.6], RO: [24.9, 45.9], RS: [20.8, 44.0],
  SE_1: [20.6, 66.9], SE_2: [16.0, 63.6], SE_3: [15.2, 59.3], SE_4: [14.0, 56.1],
  SI: [14.8, 46.1], SK: [19.5, 48.7],
};

/** Countries a single zone covers whole, coloured with that zone's price (ISO numeric id → zone). */
export const COUNTRY_ZONE: Readonly<Record<string, string>> = {
  '008': 'AL', '040': 'AT', '070': 'BA', '056': 'BE', '100': 'BG', '756': 'CH', '203': 'CZ',
  '276': 'DE_LU', '442': 'DE_LU', '233': 'EE', '724': 'ES', '246': 'FI', '250': 'FR',
  '826': 'GB', '300': 'GR', '191': 'HR', '348': 'HU', '372': 'IE_SEM', '440': 'LT', '428': 'LV',
  '499': 'ME', '807': 'MK', '528': 'NL', '616': 'PL', '620': 'PT', '642': 'RO', '688': 'RS',
  '705': 'SI', '703': 'SK',
};

/** The part of the world the map shows: [[west, south], [east, north]], degrees. */
export const EUROPE_BOUNDS: readonly [readonly [number, number], readonly [number, number]] = [[-11, 35], [32, 71]];
