import type { EntsoeAuthError } from './errors.js';

/**
 * Output shapes of the ENTSO-E parsing layer. Units: prices in EUR/MWh, power in MW (ENTSO-E `MAW`).
 * Every instant is a UTC `Date`; hourly values are keyed by the UTC start of their hour.
 */

/** The platform had no data for the request (acknowledgement reason 999 "No matching data found"). */
export interface EntsoeEmpty {
  readonly kind: 'empty';
  /** Reason text of the acknowledgement, e.g. "No matching data found". */
  readonly reason: string;
}

/** Parsed data. */
export interface EntsoeData<T> {
  readonly kind: 'data';
  readonly data: T;
}

/** What every parser returns: data, or the typed "no data" answer. Other failures are thrown. */
export type EntsoeResult<T> = EntsoeData<T> | EntsoeEmpty;

/** Options shared by every parser. */
export interface ReplyOptions {
  /**
   * HTTP status of the reply when the caller knows it: 401 is always an {@link EntsoeAuthError}
   * whatever the body. Acknowledgements are recognised by their content, whatever the status (200 or 400).
   */
  readonly httpStatus?: number;
}

/** Options shared by the parsers that fill gaps. */
export interface GapOptions extends ReplyOptions {
  /**
   * Longest real gap (missing A01 positions, or time between split TimeSeries/Periods) filled by
   * linear interpolation, in minutes. Longer gaps stay empty. Default {@link DEFAULT_MAX_GAP_MINUTES};
   * 0 disables filling.
   */
  readonly maxGapMinutes?: number;
}

/** Default limit of gap filling: gaps of at most 3 hours are interpolated. */
export const DEFAULT_MAX_GAP_MINUTES = 180;

/** One native day-ahead price period. */
export interface PricePoint {
  /** UTC start of the period. */
  readonly ts: Date;
  /** Length of the period in minutes (15, 30, 60 as published). */
  readonly periodMinutes: number;
  /** Price in EUR/MWh (may be negative). */
  readonly priceEurMwh: number;
  /** True when the value was interpolated across a real gap, not published. */
  readonly interpolated: boolean;
}

/** A TimeSeries of an A44 document that was not used, and why. */
export interface IgnoredPriceSeries {
  readonly zoneEic: string;
  readonly contractType: string | null;
  readonly sequence: number | null;
  /** Start of its first Period (UTC), null when it has none. */
  readonly start: Date | null;
  /** End of its last Period (UTC), null when it has none. */
  readonly end: Date | null;
  readonly reason: 'not-day-ahead' | 'other-sequence';
}

/** Day-ahead prices of one bidding zone, sorted by time, one point per native period. */
export interface PriceSeries {
  readonly zoneEic: string;
  readonly points: readonly PricePoint[];
}

/** Day-ahead prices of an A44 document, per zone, with the series that were set aside. */
export interface DayAheadPrices {
  readonly series: readonly PriceSeries[];
  readonly ignored: readonly IgnoredPriceSeries[];
}

/** One hourly value in MW. */
export interface HourlyPoint {
  /** UTC start of the hour. */
  readonly ts: Date;
  /** Time-weighted mean power over the hour, MW (>= 0 in the series' direction). */
  readonly mw: number;
  /** True when at least part of the hour was interpolated across a real gap. */
  readonly interpolated: boolean;
}

/** Hourly values of one direction of a border: power flows from `fromZoneEic` (out_Domain) to `toZoneEic` (in_Domain). */
export interface DirectedHourlySeries<P extends HourlyPoint = HourlyPoint> {
  /** The exporting area: ENTSO-E `out_Domain`. */
  readonly fromZoneEic: string;
  /** The importing area: ENTSO-E `in_Domain`. */
  readonly toZoneEic: string;
  readonly points: readonly P[];
}

/** An hourly scheduled exchange, telling which contract type it came from. */
export interface SchedulePoint extends HourlyPoint {
  /** `contract_MarketAgreement.type` of the source series: A05 total, A01 day-ahead, ... */
  readonly contractType: string;
}

/** A transmission outage (A78) of one in/out domain pair, interval [start, end). */
export interface TransmissionOutage {
  /** mRID of the outage document (stable across its revisions). */
  readonly mRID: string;
  readonly revisionNumber: number;
  readonly fromZoneEic: string;
  readonly toZoneEic: string;
  /** UTC start, inclusive. */
  readonly start: Date;
  /** UTC end, exclusive. */
  readonly end: Date;
  /** businessType A53 planned maintenance (true) or A54 unplanned outage (false). */
  readonly planned: boolean;
  /** `docStatus`: absent or A05 = active, A09 = cancelled, A13 = withdrawn. */
  readonly status: 'active' | 'cancelled' | 'withdrawn';
  /** First reason code, e.g. B19, or null. */
  readonly reasonCode: string | null;
  /** Reason texts joined with "; ", e.g. "ScheduledWorks", or null. */
  readonly reasonText: string | null;
  /** Unavailable assets (lines, transformers...). */
  readonly assets: readonly { readonly mRID: string; readonly name: string | null; readonly psrType: string | null }[];
  /** Lowest capacity still available during the outage, MW, or null when not published. */
  readonly minAvailableMw: number | null;
}

/** Hourly net transfer capacity of one direction (A61), MW, with the contract type when published. */
export interface NtcSeries extends DirectedHourlySeries {
  /** `contract_MarketAgreement.type` (A01 day-ahead, A02 week-ahead, A03 month-ahead, A04 year-ahead) or null when absent. */
  readonly contractType: string | null;
}
