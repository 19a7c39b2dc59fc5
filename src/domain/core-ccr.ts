/**
 * The Core capacity calculation region (CCR): the bidding zones whose day-ahead capacity is
 * calculated flow-based (a PTDF matrix and remaining available margins on critical network
 * elements) instead of as NTC per border. Source: ACER Decision 06/2016 on the capacity calculation
 * regions (Core: the former CWE and CEE regions), and the Core flow-based market coupling go-live of
 * 2022-06-08 (the first auction, for the delivery day 2022-06-09; JAO/ENTSO-E announcement). Pure.
 */

/** The Core CCR's bidding zones, catalogue codes (Luxembourg is inside DE_LU). */
export const CORE_ZONES: readonly string[] = [
  'AT',
  'BE',
  'CZ',
  'DE_LU',
  'FR',
  'HR',
  'HU',
  'NL',
  'PL',
  'RO',
  'SI',
  'SK',
];

/** First delivery day (Europe/Berlin) of Core flow-based day-ahead market coupling; its auction ran on 2022-06-08. */
export const CORE_FLOW_BASED_FROM_DAY = '2022-06-09';

const CORE = new Set(CORE_ZONES);

/**
 * Whether the border between zones `a` and `b` (codes, either order) is a Core CCR internal border:
 * both zones are Core zones. Only meaningful for borders of the catalogue (AT–FR is not one).
 */
export function isCoreBorder(a: string, b: string): boolean {
  return a !== b && CORE.has(a) && CORE.has(b);
}
