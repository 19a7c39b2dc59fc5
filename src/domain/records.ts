/** The records the repositories read and the row contract serialises (REST JSON, CSV, Arrow, GraphQL). */

/** One price row: bucket start (UTC), zone code, price in EUR/MWh, interpolation flag. */
export interface PriceRecord {
  readonly datetime: Date;
  readonly zone: string;
  readonly price: number;
  readonly interpolated: boolean;
  /** With lineage: the requested zone the row stands for (`zone` is its actual zone); absent: `zone`. */
  readonly series?: string;
}

/**
 * One /flows row: a border-hour, or at 1D/1W a bucket of one border direction and flow type.
 * Flows in MW (>= 0, in the row's direction), prices in EUR/MWh, datetimes UTC.
 */
export interface FlowRecord {
  readonly datetime: Date;
  readonly zoneFrom: string;
  readonly zoneTo: string;
  readonly flowType: string;
  readonly flowInterpolated: boolean;
  readonly netFlowMw: number;
  readonly priceFrom: number | null;
  readonly priceTo: number | null;
  readonly capacityMw: number | null;
  readonly hours: number;
  readonly derived: boolean;
}

/** Which flow is classified: measured physical flows (scheduled where missing), or schedules. */
export type FlowBasis = 'physical' | 'scheduled';
