/** GraphQL notes on `timeZone` that several aggregate operations share. */
export const TZ_NOTES = {
  buckets:
    'Buckets are local hours, days and weeks; row instants carry the offset (2026-03-29T00:00:00+01:00), days are local dates. With local, a border is in the zone of its zone A.',
  scatter:
    'DAILY and WEEKLY observations are means of local days and weeks (a border in the zone of its zone A with local).',
  totals: 'Rows hold no instants: it sets how from/to without offset are read and meta.timeZone.',
} as const;

/** The REST description of the catalogues' meta (zones, borders). */
export const CATALOGUE_META =
  'meta.provenance is derived (coverage describes stored data), upstream_sources lists the sources of every coverage shown; range, resolution and pagination are null.';
