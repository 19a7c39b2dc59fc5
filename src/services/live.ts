import type { DataEvent } from '../domain/data-events.js';
import { selectBorders, selectZones } from './catalogue.js';
import type { ServiceDeps } from './context.js';

/**
 * Keeps the events of the zones asked for (all when none is given), codes or EICs resolved now.
 * @throws InputError when a zone is unknown
 */
export function watchZones(deps: ServiceDeps, input: { zones?: readonly string[] | undefined }) {
  const zones = new Set(selectZones(deps, input));
  return (e: DataEvent): boolean => e.zones.some((z) => zones.has(z));
}

/**
 * Keeps the events of the borders asked for, in either orientation (all when none is given).
 * @throws InputError when a border is unknown
 */
export function watchBorders(deps: ServiceDeps, input: { borders?: readonly string[] | undefined }) {
  const borders = new Set(selectBorders(deps, input).map((b) => b.key));
  return (e: DataEvent): boolean => e.borders.some((b) => borders.has(b));
}
