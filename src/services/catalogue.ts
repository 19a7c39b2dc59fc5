import { borderValidity, zoneValidity } from '../domain/lineage.js';
import { readBorderSpans, readPriceSpans, type StoredSpan } from '../repositories/catalogue/coverage.js';
import type { ServiceDeps } from './context.js';
import { type Meta, sourceLabels } from './meta.js';

/** The stored span of one data kind, [datetimeFrom, datetimeTo) in UTC. */
export interface Coverage {
  readonly datetimeFrom: Date;
  readonly datetimeTo: Date;
  /** ISO 8601 duration of the latest stored period (`PT15M`, `PT60M`); null for intervals (outages). */
  readonly nativeResolution: string | null;
  /** Public source names, as meta.upstream_sources writes them. */
  readonly sources: readonly string[];
}

/** Coverage of a zone per data kind; null where nothing is stored. */
export interface ZoneCoverage {
  readonly prices: Coverage | null;
}

/** Coverage of a border per data kind; null where nothing is stored. */
export interface BorderCoverage {
  readonly physicalFlows: Coverage | null;
  readonly scheduledFlows: Coverage | null;
  readonly ntc: Coverage | null;
  readonly outages: Coverage | null;
}

/** A zone of the catalogue with its coverage. */
export interface ZoneCatalogueRow {
  readonly code: string;
  readonly eic: string;
  readonly name: string;
  readonly timeZone: string;
  readonly neighbours: readonly string[];
  readonly coverage: ZoneCoverage;
  /** First instant of the zone (UTC); null: from the platform's first data. */
  readonly validFrom: Date | null;
  /** End of the zone (exclusive, UTC); null: current. */
  readonly validTo: Date | null;
  /** Zones it replaced, codes. */
  readonly predecessors: readonly string[];
  /** Zones that replaced it, codes. */
  readonly successors: readonly string[];
}

/** A border of the catalogue (stored orientation) with its coverage. */
export interface BorderCatalogueRow {
  readonly key: string;
  readonly a: string;
  readonly b: string;
  readonly coverage: BorderCoverage;
  /** First instant in which both zones exist (UTC); null: open. */
  readonly validFrom: Date | null;
  /** End of the border (exclusive, UTC): when one of its zones ended; null: current. */
  readonly validTo: Date | null;
}

function coverageOf(span: StoredSpan | null): Coverage | null {
  if (!span) return null;
  return {
    datetimeFrom: span.from,
    datetimeTo: span.to,
    nativeResolution: span.periodMinutes === null ? null : `PT${span.periodMinutes}M`,
    sources: sourceLabels(span.sources),
  };
}

/** Price coverage of zones by short code, in the order given (one query). */
export async function getZoneCoverage(deps: ServiceDeps, codes: readonly string[]): Promise<ZoneCoverage[]> {
  const ids = codes.flatMap((c) => deps.catalogue.zone(c)?.id ?? []);
  const spans = new Map((await readPriceSpans(deps.db, ids)).map((s) => [s.zone, s]));
  return codes.map((c) => ({ prices: coverageOf(spans.get(c) ?? null) }));
}

/** Coverage of borders by key (stored orientation), in the order given (one query). */
export async function getBorderCoverage(deps: ServiceDeps, keys: readonly string[]): Promise<BorderCoverage[]> {
  const ids = keys.flatMap((k) => deps.catalogue.border(k)?.id ?? []);
  const spans = new Map((await readBorderSpans(deps.db, ids)).map((s) => [s.border, s]));
  return keys.map((k) => {
    const s = spans.get(k);
    return {
      physicalFlows: coverageOf(s?.physical ?? null),
      scheduledFlows: coverageOf(s?.scheduled ?? null),
      ntc: coverageOf(s?.ntc ?? null),
      outages: coverageOf(s?.outages ?? null),
    };
  });
}

/** Catalogue meta: derived from what is stored, sources of every listed coverage, no range or resolution. */
function catalogueMeta(coverages: readonly (Coverage | null)[]): Meta {
  const sources = [...new Set(coverages.flatMap((c) => c?.sources ?? []))].sort();
  return { provenance: 'derived', upstreamSources: sources, range: null, resolution: null, pagination: null };
}

/** The codes of the zones asked for (all when none is given: current and historical), sorted; no coverage read. */
export function selectZones(deps: ServiceDeps, input: { zones?: readonly string[] | undefined }): string[] {
  const codes = input.zones?.length
    ? deps.catalogue.resolveZones(input.zones)
    : deps.catalogue.zones.map((z) => z.code);
  return [...codes].sort();
}

/**
 * The borders written `A->B` in either orientation (all when none is given), each once in stored
 * orientation, ordered by key; no coverage read.
 */
export function selectBorders(deps: ServiceDeps, input: { borders?: readonly string[] | undefined }) {
  const keys = input.borders?.length
    ? deps.catalogue.resolveBorders(input.borders).map((b) => b.key)
    : deps.catalogue.borders.map((b) => b.key);
  return [...new Set(keys)].sort().map((key) => deps.catalogue.border(key)!);
}

/**
 * Zones by code (all when none is given: current and historical), each with its neighbours,
 * coverage and period, ordered by code.
 */
export async function getZones(deps: ServiceDeps, input: { zones?: readonly string[] | undefined }) {
  const sorted = selectZones(deps, input);
  const coverage = await getZoneCoverage(deps, sorted);
  const rows: ZoneCatalogueRow[] = sorted.map((code, i) => {
    const zone = deps.catalogue.zone(code)!;
    return {
      code,
      eic: zone.eic,
      name: zone.name,
      timeZone: zone.timeZone,
      neighbours: deps.catalogue.neighboursOf(code),
      coverage: coverage[i]!,
      ...zoneValidity(code),
    };
  });
  return { meta: catalogueMeta(coverage.map((c) => c.prices)), rows };
}

/**
 * Borders written `A->B` in either orientation (all when none is given), each once in stored
 * orientation with its coverage, ordered by key.
 */
export async function getBorders(deps: ServiceDeps, input: { borders?: readonly string[] | undefined }) {
  const selected = selectBorders(deps, input);
  const coverage = await getBorderCoverage(
    deps,
    selected.map((b) => b.key),
  );
  const rows: BorderCatalogueRow[] = selected.map(({ key, a, b }, i) => ({
    key,
    a,
    b,
    coverage: coverage[i]!,
    ...borderValidity(a, b),
  }));
  return { meta: catalogueMeta(coverage.flatMap((c) => [c.physicalFlows, c.scheduledFlows, c.ntc, c.outages])), rows };
}
