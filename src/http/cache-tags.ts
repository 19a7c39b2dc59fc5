/**
 * Cache tags for shared caches and CDNs: every REST answer names what it was computed from in
 * `Surrogate-Key` (space-separated: Varnish, Fastly) and `Cache-Tag` (comma-separated: Cloudflare,
 * Akamai), and each committed data event names the tags it makes stale, for a purge of exactly
 * those (see cache-purge.ts).
 *
 * Tags: the dataset (`prices`, `flows`, `catalogue`) on every answer, for purging a whole dataset;
 * then its scope: `prices:<ZONE>` per zone filtered on, `flows:<ZONE>` per zone and
 * `flows:<A->B>` per border (stored orientation) filtered on, `prices:all` / `flows:all` for an
 * answer over every zone. A prices change of a zone also reclassifies its borders' flows, so it
 * makes that zone's flow tags stale too.
 */
import type { DataEvent } from '../domain/data-events.js';
import { type Catalogue, DATA_CATALOGUE } from '../domain/catalogue.js';

/** The header a Varnish VCL bans on, space-separated tags. */
export const SURROGATE_KEY_HEADER = 'surrogate-key';
/** The same tags, comma-separated. */
export const CACHE_TAG_HEADER = 'cache-tag';

type Dataset = 'prices' | 'flows';

/** The stored data an answer is computed from: a dataset, or the catalogue (coverage of both). */
export type ReadData = Dataset | 'catalogue';

/** The filters of a parsed REST query that scope its tags. */
interface ScopedQuery {
  readonly zone?: readonly string[];
  readonly border?: readonly string[];
}

function scopeTags(dataset: Dataset, q: ScopedQuery, catalogue: Catalogue): string[] {
  const zones = q.zone?.length ? catalogue.resolveZones(q.zone, 'zone') : [];
  const borders = q.border?.length ? catalogue.resolveBorders(q.border, 'border').map((b) => b.key) : [];
  if (dataset === 'prices') {
    const priced = [...zones, ...borders.flatMap((k) => k.split('->'))];
    return priced.length ? [...new Set(priced)].map((z) => `prices:${z}`) : ['prices:all'];
  }
  const scoped = [...zones, ...borders];
  return scoped.length ? scoped.map((s) => `flows:${s}`) : ['flows:all'];
}

/**
 * The tags of an answer computed from `reads` (the endpoint's declaration) for its parsed `query`:
 * `catalogue` alone for a catalogue answer, none for an answer that reads no data.
 */
export function responseTags(reads: readonly ReadData[], query: ScopedQuery, catalogue: Catalogue): string[] {
  if (reads.includes('catalogue')) return ['catalogue'];
  const datasets = reads.filter((r): r is Dataset => r !== 'catalogue');
  const scopes = datasets.flatMap((d) => scopeTags(d, query, catalogue));
  return [...new Set([...datasets, ...scopes])];
}

/**
 * A tag that is one token in both headers and in a purge: letters, digits and `_ . : > -` only.
 * A space or comma would split it into several tags (`prices:X prices` names the whole `prices`
 * dataset), so a tag holding one, or a quote or control character, is refused, never sent.
 */
const SAFE_TAG = /^[A-Za-z0-9_.:>-]{1,100}$/;

/** The tags that are safe to send ({@link SAFE_TAG}); the others are refused. */
export function safeTags(tags: Iterable<string>): string[] {
  return [...tags].filter((t) => SAFE_TAG.test(t));
}

/** Adds the tags to a response's headers (nothing for an empty list; unsafe tags refused). */
export function setCacheTags(headers: Headers, unchecked: readonly string[]): void {
  const tags = safeTags(unchecked);
  if (!tags.length) return;
  headers.set(SURROGATE_KEY_HEADER, tags.join(' '));
  headers.set(CACHE_TAG_HEADER, tags.join(','));
}

/**
 * The tags a committed data event makes stale: its zones' or borders' tags and the `:all` ones.
 * Never a dataset's bare tag, and only {@link safeTags}: an area that would not make one tag is left out.
 */
export function eventTags(event: DataEvent, catalogue: Catalogue = DATA_CATALOGUE): string[] {
  if (event.kind === 'prices') {
    const borders = event.zones.flatMap((z) => catalogue.bordersOf(z).map((b) => `flows:${b.key}`));
    return safeTags(
      new Set([...event.zones.flatMap((z) => [`prices:${z}`, `flows:${z}`]), 'prices:all', ...borders, 'flows:all']),
    );
  }
  return safeTags(
    new Set([...event.borders.flatMap((k) => [`flows:${k}`, ...k.split('->').map((z) => `flows:${z}`)]), 'flows:all']),
  );
}
