/**
 * The early-range notice: when the view's range starts before one of its zones or its border
 * existed (the API would answer 422), the panels are cleared and `#range-notice` offers the first
 * whole day that can be shown.
 */
import { readSelection } from './controls.js';
import { DAY_MS, isoDay } from './data.js';
import type { LoadTracker } from './status.js';
import type { ScopeReader } from './scope.js';
import { toWall, zoneName } from './time.js';
import { type Begun, type EarlyStart, earlyStarts, earlyStartText } from './zone-periods.js';

/** What the view holds that may begin late. */
export interface ViewItems {
  /** The catalogue's zones. */
  readonly zones: readonly Begun[];
  /** The selected zone codes. */
  readonly codes: readonly string[];
  /** The selected border, if any. */
  readonly border: Begun | undefined;
  /** The view's IANA time zone. */
  readonly timeZone: string;
}

/** The selected zones and border that began after `fromMs` (wall-clock ms of the view's zone), latest first. */
export function earlyInView(view: ViewItems, fromMs: number): EarlyStart[] {
  const wall = (b: Begun): Begun => ({
    ...b,
    validFrom: b.validFrom ? new Date(toWall(Date.parse(b.validFrom), view.timeZone)).toISOString() : null,
  });
  const items = [...view.zones.filter((z) => view.codes.includes(z.code)), ...(view.border ? [view.border] : [])];
  return earlyStarts(items.map(wall), fromMs);
}

/** The first whole day (YYYY-MM-DD, of the view's zone) on which every one of `early` exists. */
export const firstWholeDay = (early: readonly EarlyStart[]): string =>
  isoDay(Math.ceil(Math.max(...early.map((e) => e.fromMs)) / DAY_MS) * DAY_MS);

/** Checks the view's range against when its zones and border began. */
export interface RangeGuard {
  /** Whether the range starts too early: then the panels are cleared and the notice shown, else the notice is removed. */
  check(): boolean;
  /** What the last `check` said (false before any). */
  wasBlocked(): boolean;
}

/** The page's context of the guard. */
export interface GuardContext {
  readonly doc: Document;
  readonly form: HTMLFormElement;
  readonly notice: HTMLElement;
  readonly scope: ScopeReader;
  readonly tracker: LoadTracker;
  /** Empties every panel. */
  readonly clear: () => void;
  /** The catalogue's zones (empty before it loaded). */
  readonly zones: () => readonly Begun[];
  /** The selected border. */
  readonly border: () => Begun | undefined;
}

/** A button that moves the custom range's start to `firstDay` (YYYY-MM-DD) and reloads. */
function moveButton(doc: Document, form: HTMLFormElement, firstDay: string): HTMLButtonElement {
  const move = doc.createElement('button');
  move.type = 'button';
  move.textContent = `Start the range on ${firstDay}`;
  move.addEventListener('click', () => {
    (form.querySelector<HTMLInputElement>('input[name=range][value=custom]') ?? move).click();
    const from = form.elements.namedItem('from') as HTMLInputElement;
    const to = form.elements.namedItem('to') as HTMLInputElement;
    from.value = firstDay;
    if (to.value < firstDay) to.value = firstDay;
    from.dispatchEvent(new Event('change', { bubbles: true }));
  });
  return move;
}

/** The guard of the page's range. */
export function createRangeGuard(ctx: GuardContext): RangeGuard {
  let blocked = false;
  const check = (): boolean => {
    const scope = ctx.scope.current();
    const { zones: codes } = readSelection(ctx.form);
    const border = ctx.border();
    const timeZone = zoneName(scope?.tz ?? 'market');
    const early = scope ? earlyInView({ zones: ctx.zones(), codes, border, timeZone }, scope.range.from) : [];
    if (!early.length) {
      ctx.notice.replaceChildren();
      return (blocked = false);
    }
    ctx.clear();
    const text = earlyStartText(early, isoDay);
    ctx.notice.replaceChildren(text, moveButton(ctx.doc, ctx.form, firstWholeDay(early)));
    ctx.tracker.fail(text);
    return (blocked = true);
  };
  return { check, wasBlocked: () => blocked };
}
