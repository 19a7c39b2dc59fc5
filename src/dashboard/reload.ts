/**
 * Reloading on a change of the selection: the URL and the map's marks follow at once, the panels
 * the change touches reload after a short pause (changes within it merge), and every panel reloads
 * once the range no longer starts before the selection existed.
 */
import { clearExportErrors } from './export.js';
import { PANELS, type Panel } from './panels-load.js';
import type { RangeGuard } from './range-notice.js';

/** Pause after the last change before the panels reload, ms. */
export const DEBOUNCE_MS = 250;

/** The panel groups a change of the form's input `name` touches. */
export function panelsOfInput(name: string): Panel[] {
  if (name === 'zone' || name === 'res') return ['prices', 'zones'];
  if (name === 'border') return ['flows'];
  return ['prices', 'zones', 'flows', 'map'];
}

/**
 * The panel groups to load, in order, for those `due`: none while the range is `blocked`, every one
 * (the due first) when it `wasBlocked` at the last check, as its panels were cleared.
 */
export function panelsToLoad(due: Iterable<Panel>, blocked: boolean, wasBlocked: boolean): Panel[] {
  if (blocked) return [];
  return [...new Set([...due, ...(wasBlocked ? PANELS : [])])];
}

/** Schedules reloads. */
export interface Reloader {
  /** Marks `panels` due and (re)starts the pause before loading. */
  later(...panels: Panel[]): void;
}

/** The page's context of the reloads. */
export interface ReloadContext {
  readonly doc: Document;
  readonly form: HTMLFormElement;
  readonly load: Readonly<Record<Panel, () => Promise<void>>>;
  readonly guard: RangeGuard;
  /** Writes the selection into the page URL. */
  readonly syncUrl: () => void;
  /** Marks the selection on the map. */
  readonly markSelection: () => void;
}

/** Reloads the panels on the form's changes. */
export function createReloader(ctx: ReloadContext): Reloader {
  const due = new Set<Panel>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = (...panels: Panel[]) => {
    ctx.doc.body.dataset.state = 'loading';
    clearExportErrors(ctx.doc);
    for (const p of panels) due.add(p);
    ctx.syncUrl();
    ctx.markSelection();
    clearTimeout(timer);
    timer = setTimeout(() => {
      const wasBlocked = ctx.guard.wasBlocked();
      const loads = panelsToLoad(due, ctx.guard.check(), wasBlocked).map((p) => ctx.load[p]());
      due.clear();
      void Promise.all(loads);
    }, DEBOUNCE_MS);
  };
  ctx.form.addEventListener('submit', (e) => e.preventDefault());
  ctx.form.addEventListener('change', (e) => later(...panelsOfInput((e.target as HTMLInputElement).name)));
  return { later };
}
