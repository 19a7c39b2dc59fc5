import type { RangeChoice } from './data.js';
import { isFlowBased } from './flow-based.js';
import type { DashboardResolution, ViewState, ViewTz } from './state.js';

const TZS: readonly string[] = ['UTC', 'market', 'local'];

/** A bidding zone as the picker lists it. */
export interface ZoneOption {
  readonly code: string;
  readonly name: string;
}

/** A border as the picker lists it: key `A->B` in stored orientation. */
export interface BorderOption {
  readonly key: string;
  readonly zoneA: { readonly code: string };
  readonly zoneB: { readonly code: string };
  /** Whether any physical or scheduled flow of the border is stored (at any time); absent: unknown, listed as with data. */
  readonly hasFlows?: boolean;
}

/** What the controls hold. */
export interface Selection {
  readonly zones: string[];
  readonly range: RangeChoice;
  readonly border: string;
  readonly resolution: DashboardResolution;
  readonly tz: ViewTz;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node: HTMLElementTagNameMap[K] = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

/** Fills the zone picker with one labelled checkbox per zone (its accessible name: code and name). */
export function renderZonePicker(list: HTMLElement, zones: readonly ZoneOption[], selected: ReadonlySet<string>): void {
  list.replaceChildren(
    ...zones.map((z) =>
      el(
        'label',
        { title: z.name },
        el('input', { type: 'checkbox', name: 'zone', value: z.code, checked: selected.has(z.code) }),
        z.code,
        el('span', { className: 'visually-hidden' }, ` ${z.name}`),
      ),
    ),
  );
}

/** Fills the border picker, `A->B` shown as `A – B`. */
export function renderBorderPicker(
  select: HTMLSelectElement,
  borders: readonly BorderOption[],
  selected: string,
): void {
  const option = (b: BorderOption) =>
    el(
      'option',
      { value: b.key, selected: b.key === selected },
      `${b.zoneA.code} – ${b.zoneB.code}${isFlowBased(b.zoneA.code, b.zoneB.code) ? ' (flow-based)' : ''}`,
    );
  const withData = borders.filter((b) => b.hasFlows !== false);
  const without = borders.filter((b) => b.hasFlows === false);
  const groups = [
    { label: `With flow data (${withData.length})`, rows: withData },
    { label: `No flow data stored (${without.length})`, rows: without },
  ].filter((g) => g.rows.length > 0);
  select.replaceChildren(...groups.map((g) => el('optgroup', { label: g.label }, ...g.rows.map(option))));
}

/** Reads the form: checked zones in list order, the range choice and the border key. */
export function readSelection(form: HTMLFormElement): Selection {
  const zones = [...form.querySelectorAll<HTMLInputElement>('input[name=zone]:checked')].map((i) => i.value);
  const data = new FormData(form);
  const range = String(data.get('range') ?? '7');
  const choice: RangeChoice =
    range === 'custom'
      ? {
          kind: 'custom',
          from: (form.elements.namedItem('from') as HTMLInputElement).value,
          to: (form.elements.namedItem('to') as HTMLInputElement).value,
        }
      : { kind: 'days', days: Number(range) };
  return {
    zones,
    range: choice,
    border: String(data.get('border') ?? ''),
    resolution: String(data.get('res') ?? 'HOURLY') as DashboardResolution,
    tz: TZS.includes(String(data.get('tz'))) ? (String(data.get('tz')) as ViewTz) : 'market',
  };
}

/** Puts a state's range, resolution and time zone into the form (zones and border: the pickers). */
export function applyState(form: HTMLFormElement, state: ViewState): void {
  const radio = (name: string, value: string) => {
    const input = form.querySelector<HTMLInputElement>(`input[name=${name}][value="${value}"]`);
    if (input) input.checked = true;
  };
  radio('range', state.range.kind === 'days' ? String(state.range.days) : 'custom');
  if (state.range.kind === 'custom') {
    (form.elements.namedItem('from') as HTMLInputElement).value = state.range.from;
    (form.elements.namedItem('to') as HTMLInputElement).value = state.range.to;
  }
  radio('res', state.resolution);
  radio('tz', state.tz);
}

/** Enables the date inputs for a custom range; fills empty ones with `fallback` (YYYY-MM-DD, UTC). */
export function syncDateInputs(form: HTMLFormElement, fallback: { from: string; to: string; max: string }): void {
  const custom = (form.elements.namedItem('range') as RadioNodeList).value === 'custom';
  for (const name of ['from', 'to'] as const) {
    const input = form.elements.namedItem(name) as HTMLInputElement;
    input.disabled = !custom;
    input.max = fallback.max;
    if (custom && !input.value) input.value = fallback[name];
  }
}
