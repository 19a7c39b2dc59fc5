import type { Resolution } from '../domain/resolution.js';
import type { TimeRange } from '../domain/time.js';

/** How the values of a response came to be (docs/contract.md#envelope-and-meta). */
export type Provenance = 'measured' | 'derived';

/** meta.pagination of /flows. */
export interface Pagination {
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  readonly nextOffset: number | null;
}

/** The response meta (docs/contract.md#envelope-and-meta), surface-neutral. */
export interface Meta {
  readonly provenance: Provenance;
  readonly upstreamSources: string[] | null;
  readonly range: TimeRange | null;
  readonly resolution: Resolution | null;
  readonly pagination: Pagination | null;
  /** meta.time_zone: the IANA zone or `local` a `tz` request applied; absent without `tz`. */
  readonly timeZone?: string | undefined;
}

const SOURCE_LABELS: Record<string, string> = {
  demo: 'demo',
  entsoe: 'ENTSO-E Transparency Platform',
};

/** Public names of stored data sources (`demo` stays `demo`: demo data never poses as upstream data). */
export function sourceLabels(sources: readonly string[]): string[] {
  return sources.map((s) => SOURCE_LABELS[s] ?? s);
}

/**
 * The provenance of values read from `sources` (stored source names): `derived` when any of them is
 * the generated demo data set, which is never presented as measurement (docs/contract.md#envelope-and-meta), else `otherwise`.
 */
export function provenanceOf(otherwise: Provenance, sources: readonly string[]): Provenance {
  return sources.includes('demo') ? 'derived' : otherwise;
}
