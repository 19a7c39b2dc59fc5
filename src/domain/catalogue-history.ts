/**
 * How the bidding zones changed since the Transparency Platform's first data (2015): the zones that
 * no longer exist, the current zones that started later, and which zone followed which. Hand-written
 * (catalogue-data.ts is generated); EICs from the platform's area list in
 * test/fixtures/entsoe/eic_areas_entsoe-py.csv.
 *
 * Instants are UTC; a period is [validFrom, validTo), a missing bound is open (a zone without
 * `validFrom` is served from the platform's first data, one without `validTo` is current).
 * Sources of the dates:
 * - DE-AT-LU split into DE-LU and AT on delivery day 2018-10-01 (Berlin/Vienna midnight = 2018-09-30T22:00Z):
 *   Bundesnetzagentur / E-Control joint decision of 2017-05-15, and the platform's area list, which
 *   marks DE_AT_LU valid before 2018-10-01.
 * - I-SEM (IE_SEM) go-live on trading day 2018-10-01 (Dublin midnight = 2018-09-30T23:00Z): SEM Committee.
 * - Italy's zone review effective 2021-01-01 (Rome midnight = 2020-12-31T23:00Z; ARERA resolution
 *   103/2019, Terna): the limited-production poles Brindisi, Foggia, Priolo and Rossano ended, Calabria
 *   (IT_CALA) started.
 * Interconnectors commissioned later (e.g. ALEGrO BE–DE_LU in 2020) are not modelled as border periods:
 * such a border simply has no data before its first flow.
 * Borders of the historical zones: the platform's neighbour list
 * (test/fixtures/entsoe/bidding_zone_neighbours_entsoe-py.csv) with its virtual areas (IT_NORD_AT) and
 * the later ALEGrO (DE_AT_LU–BE, commissioned after the split) left out, and DE_AT_LU–HU added (the
 * Austrian–Hungarian lines, AT–HU after the split); Terna's pre-2021 zones link Greece to the
 * Brindisi pole (GR–IT_BRNN) and Sicily to the mainland through the Rossano pole (IT_ROSN–IT_SICI).
 */
import type { CatalogueZone } from './catalogue-data.js';

/** A validity period, UTC ISO 8601 instants; a missing bound is open. */
export interface Validity {
  /** First instant of the period (inclusive), UTC. */
  readonly validFrom?: string;
  /** End of the period (exclusive), UTC. */
  readonly validTo?: string;
}

/** A zone's place in the market's history. */
export interface ZoneHistory extends Validity {
  /** Zones this zone replaced (all or part of their area), oldest first. */
  readonly predecessors?: readonly string[];
  /** Zones that replaced this zone. */
  readonly successors?: readonly string[];
}

/** 2018-10-01 00:00 Europe/Berlin: DE-AT-LU became DE-LU and AT. */
export const DE_AT_LU_SPLIT = '2018-09-30T22:00:00Z';
/** 2018-10-01 00:00 Europe/Dublin: I-SEM go-live. */
export const I_SEM_START = '2018-09-30T23:00:00Z';
/** 2021-01-01 00:00 Europe/Rome: Italy's zone review. */
export const ITALY_2021 = '2020-12-31T23:00:00Z';

/** Zones that no longer exist, served for their periods. */
export const HISTORICAL_ZONES: readonly CatalogueZone[] = [
  { code: 'DE_AT_LU', eic: '10Y1001A1001A63L', name: 'Germany-Austria-Luxembourg', timeZone: 'Europe/Berlin' },
  { code: 'IT_BRNN', eic: '10Y1001A1001A699', name: 'Italy Brindisi (production pole)', timeZone: 'Europe/Rome' },
  { code: 'IT_FOGN', eic: '10Y1001A1001A72K', name: 'Italy Foggia (production pole)', timeZone: 'Europe/Rome' },
  { code: 'IT_PRGP', eic: '10Y1001A1001A76C', name: 'Italy Priolo (production pole)', timeZone: 'Europe/Rome' },
  { code: 'IT_ROSN', eic: '10Y1001A1001A77A', name: 'Italy Rossano (production pole)', timeZone: 'Europe/Rome' },
];

/** Periods, predecessors and successors by zone code; a zone not listed is valid over the whole record. */
export const ZONE_HISTORY: Readonly<Record<string, ZoneHistory>> = {
  DE_AT_LU: { validTo: DE_AT_LU_SPLIT, successors: ['DE_LU', 'AT'] },
  DE_LU: { validFrom: DE_AT_LU_SPLIT, predecessors: ['DE_AT_LU'] },
  AT: { validFrom: DE_AT_LU_SPLIT, predecessors: ['DE_AT_LU'] },
  IE_SEM: { validFrom: I_SEM_START },
  IT_BRNN: { validTo: ITALY_2021, successors: ['IT_SUD'] },
  IT_FOGN: { validTo: ITALY_2021, successors: ['IT_SUD'] },
  IT_PRGP: { validTo: ITALY_2021, successors: ['IT_SICI'] },
  IT_ROSN: { validTo: ITALY_2021, successors: ['IT_CALA'] },
  IT_CALA: { validFrom: ITALY_2021, predecessors: ['IT_ROSN'] },
};

/**
 * Borders of the historical zones, [A, B] with A's code sorting first; a border is valid where both
 * its zones are.
 */
export const HISTORICAL_BORDERS: readonly (readonly [string, string])[] = [
  ['CH', 'DE_AT_LU'],
  ['CZ', 'DE_AT_LU'],
  ['DE_AT_LU', 'DK_1'],
  ['DE_AT_LU', 'DK_2'],
  ['DE_AT_LU', 'FR'],
  ['DE_AT_LU', 'HU'],
  ['DE_AT_LU', 'IT_NORD'],
  ['DE_AT_LU', 'NL'],
  ['DE_AT_LU', 'PL'],
  ['DE_AT_LU', 'SE_4'],
  ['DE_AT_LU', 'SI'],
  ['GR', 'IT_BRNN'],
  ['IT_BRNN', 'IT_SUD'],
  ['IT_FOGN', 'IT_SUD'],
  ['IT_PRGP', 'IT_SICI'],
  ['IT_ROSN', 'IT_SICI'],
  ['IT_ROSN', 'IT_SUD'],
];
