/** The upstream data items the service loads, and which of them are fetched per zone. */

/** Data items: day-ahead prices (A44), physical flows (A11), scheduled exchanges (A09), day-ahead NTC (A61), outages (A78). */
export const ITEMS = ['prices', 'flows', 'schedules', 'ntc', 'outages'] as const;
export type Item = (typeof ITEMS)[number];

/** Items fetched per zone; the others are fetched per border. */
export const ZONE_ITEMS: ReadonlySet<Item> = new Set(['prices']);
