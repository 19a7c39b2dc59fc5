/** The catalogue the page starts from: the zones and borders in force, for the pickers, the map and the range checks. */
import { type BorderOption, readSelection, type ZoneOption } from './controls.js';
import type { DashboardStartQuery } from './gql/graphql.js';
import type { MapPicks } from './map.js';
import type { Begun } from './zone-periods.js';

/** A border of the catalogue: a picker option that began at some instant. */
export type CatalogueBorder = BorderOption & Begun;

/** The zones and borders in force (those without an end). */
export interface Catalogue {
  readonly zones: readonly (ZoneOption & Begun)[];
  readonly borders: readonly CatalogueBorder[];
}

/** The catalogue of the start answer: zones and borders in force; a border has flows when either kind is covered. */
export function catalogueOf(start: Pick<DashboardStartQuery, 'zones' | 'borders'>): Catalogue {
  return {
    zones: start.zones.filter((z) => z.validTo === null),
    borders: start.borders
      .filter((b) => b.validTo === null)
      .map((b) => ({
        ...b,
        code: b.key,
        hasFlows: b.coverage.physicalFlows !== null || b.coverage.scheduledFlows !== null,
      })),
  };
}

/** The border of `borders` the form selects. */
export const selectedBorder = (
  form: HTMLFormElement,
  borders: readonly CatalogueBorder[],
): CatalogueBorder | undefined => borders.find((b) => b.key === readSelection(form).border);

/** Map clicks as changes of the form: a zone is checked, a border selected (each fires `change`). */
export function mapPicks(form: HTMLFormElement, borderSelect: HTMLSelectElement): MapPicks {
  return {
    zone: (code) => {
      const box = form.querySelector<HTMLInputElement>(`input[name=zone][value="${code}"]`);
      if (!box || box.checked) return;
      box.checked = true;
      box.dispatchEvent(new Event('change', { bubbles: true }));
    },
    border: (key) => {
      borderSelect.value = key;
      borderSelect.dispatchEvent(new Event('change', { bubbles: true }));
    },
  };
}
