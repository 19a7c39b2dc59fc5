/**
 * Whether a view's range starts before one of its zones (or its border) existed: the API answers such
 * a range with a 422, so the dashboard clears its panels and offers the first day it can show. Pure.
 */

/** A zone or border of the catalogue with the instant it began (UTC ISO, null: from the platform's first data). */
export interface Begun {
  readonly code: string;
  readonly validFrom?: string | null;
  /** Zones it replaced (DE_LU: DE_AT_LU). */
  readonly predecessors?: readonly string[];
}

/** A zone or border the range starts before: when it began (UTC ms) and what it replaced. */
export interface EarlyStart {
  readonly code: string;
  readonly fromMs: number;
  readonly predecessors: readonly string[];
}

/** The ones of `items` that began after `fromMs` (UTC ms), latest first. */
export function earlyStarts(items: readonly Begun[], fromMs: number): EarlyStart[] {
  return items
    .flatMap((z) => {
      const begun = z.validFrom ? Date.parse(z.validFrom) : Number.NaN;
      return begun > fromMs ? [{ code: z.code, fromMs: begun, predecessors: z.predecessors ?? [] }] : [];
    })
    .sort((a, b) => b.fromMs - a.fromMs || a.code.localeCompare(b.code));
}

/** What the page says of `early`; `day` names an instant's day (YYYY-MM-DD) in the view's time zone. */
export function earlyStartText(early: readonly EarlyStart[], day: (ms: number) => string): string {
  const parts = early.map((e) => {
    const before = e.predecessors.length ? `; before, it was part of ${e.predecessors.join(' and ')}` : '';
    return `${e.code.replace('->', ' – ')} exists from ${day(e.fromMs)}${before}`;
  });
  return `The range starts before the data can: ${parts.join('. ')}.`;
}
