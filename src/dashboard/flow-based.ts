/**
 * Borders inside the Core capacity calculation region, whose day-ahead capacity has been allocated
 * flow-based (a PTDF domain, not an NTC per border) since the Core go-live on the delivery day
 * 2022-06-09. The classification judges congestion against the NTC the platform publishes, which on
 * these borders is a derived figure: the dashboard says so wherever congestion is drawn for them.
 */

/** Bidding zones of the Core region (ACER decision 06/2016 as amended; DE_LU for DE/AT/LU's successor). */
const CORE_ZONES = new Set(['AT', 'BE', 'CZ', 'DE_LU', 'FR', 'HR', 'HU', 'NL', 'PL', 'RO', 'SI', 'SK']);

/** First delivery day of Core flow-based market coupling (CET). */
export const FLOW_BASED_SINCE = '2022-06-09';

/** Whether the border of zones `a` and `b` lies inside the Core region (flow-based since {@link FLOW_BASED_SINCE}). */
export function isFlowBased(a: string, b: string): boolean {
  return CORE_ZONES.has(a) && CORE_ZONES.has(b);
}

/** The sentence shown beside a flow-based border's classes. */
export const FLOW_BASED_NOTE = `Core border: capacity is allocated flow-based since ${FLOW_BASED_SINCE}, so "congestion" here is judged against the NTC the platform derives from the flow-based domain, an approximation.`;
