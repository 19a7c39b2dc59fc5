/**
 * The request plan of an ingestion run: how many upstream requests its windows take, per data
 * kind, and how long they take at the configured pace (ENTSOE_REQUESTS_PER_MINUTE). Stated before a
 * run fetches anything (and alone by `npm run ingest -- --plan`); the progress lines count against
 * it. Pure: no I/O.
 */
import { DAY_MS, HOUR_MS } from '../domain/calendar.js';
import type { DocumentType } from './client.js';
import { OUTAGE_PAGE_SIZE, PRICE_PAGE_SIZE } from './paging.js';
import { formatDuration } from './progress.js';
import { ITEMS, type Item, ZONE_ITEMS } from '../domain/items.js';
import type { PlannedWindow } from './windows.js';

/** The document type each item asks the platform for. */
export const ITEM_DOCUMENT: Readonly<Record<Item, DocumentType>> = {
  prices: 'A44',
  flows: 'A11',
  schedules: 'A09',
  ntc: 'A61',
  outages: 'A78',
};

/**
 * Offset of the day-ahead delivery day from UTC taken for the page estimate: days start at 00:00
 * CET (23:00Z the day before); summer time is ignored, the estimate only counts days.
 */
const DELIVERY_DAY_OFFSET_MS = HOUR_MS;

/** Day-ahead delivery days a window touches: A44 replies hold one TimeSeries per delivery day. */
export function deliveryDays(w: Pick<PlannedWindow, 'start' | 'end'>): number {
  const first = Math.floor((w.start.getTime() + DELIVERY_DAY_OFFSET_MS) / DAY_MS);
  const last = Math.floor((w.end.getTime() - 1 + DELIVERY_DAY_OFFSET_MS) / DAY_MS);
  return Math.max(0, last - first + 1);
}

/**
 * Requests one window takes when nothing is retried: A44 prices one per page of
 * {@link PRICE_PAGE_SIZE} TimeSeries (a full page asks for the next, so 100 days take 2); the border
 * items one per direction; A78 outages one per direction, plus a page per {@link OUTAGE_PAGE_SIZE}
 * outages of a direction (not known before fetching: not counted).
 */
export function windowRequests(w: PlannedWindow): number {
  if (w.item === 'prices') return Math.floor(deliveryDays(w) / PRICE_PAGE_SIZE) + 1;
  return 2;
}

/** The plan of one data kind. */
export interface KindPlan {
  readonly item: Item;
  readonly document: DocumentType;
  /** Zones (prices) or borders with at least one window to fetch. */
  readonly areas: number;
  readonly windows: number;
  readonly requests: number;
}

/** What a run is about to fetch. */
export interface RequestPlan {
  /** One entry per item with windows, in {@link ITEMS} order. */
  readonly kinds: readonly KindPlan[];
  readonly windows: number;
  /** Requests without retries (A78 pages beyond the first are not counted). */
  readonly requests: number;
  /** The client's pace: at most this many requests start per minute. */
  readonly requestsPerMinute: number;
  /** How long the requests take at the pace alone, ms: a lower bound (replies and writes add to it). */
  readonly paceMs: number;
}

/**
 * The plan of a list of windows: each a zone or border (`areaKey`) of an item over a period. The
 * one place that turns windows into request counts: restricting zones and borders to their
 * validity periods is done on `windows` before, and the counts follow.
 */
export function requestPlan(windows: readonly PlannedWindow[], requestsPerMinute: number): RequestPlan {
  const kinds = ITEMS.map((item) => {
    const ofItem = windows.filter((w) => w.item === item);
    return {
      item,
      document: ITEM_DOCUMENT[item],
      areas: new Set(ofItem.map((w) => w.areaKey)).size,
      windows: ofItem.length,
      requests: ofItem.reduce((n, w) => n + windowRequests(w), 0),
    };
  }).filter((k) => k.windows > 0);
  const requests = kinds.reduce((n, k) => n + k.requests, 0);
  return {
    kinds,
    windows: windows.length,
    requests,
    requestsPerMinute,
    paceMs: Math.round((requests * 60_000) / requestsPerMinute),
  };
}

/** What the ledger saved the run, for the plan's last line. */
export interface PlanContext {
  /** Windows of the range earlier runs finished (skipped). */
  readonly loaded?: number;
  /** Targets with nothing left to fetch. */
  readonly upToDate?: number;
  /** The database has no schema yet, so no ledger. */
  readonly noSchema?: boolean;
}

function ledgerLine(context: PlanContext): string {
  if (context.noSchema) return '  ledger: the database has no schema yet, nothing loaded';
  const skipped = [
    context.loaded ? `${context.loaded} window(s) of the range already loaded, skipped` : '',
    context.upToDate ? `${context.upToDate} target(s) up to date` : '',
  ].filter(Boolean);
  return `  ledger: ${skipped.length ? skipped.join('; ') : 'nothing of the range loaded yet'}`;
}

function kindLine(k: KindPlan): string {
  const areas = `${k.areas} ${ZONE_ITEMS.has(k.item) ? 'zone' : 'border'}(s)`;
  const how =
    k.item === 'prices'
      ? 'a page per 100 days'
      : k.item === 'outages'
        ? '2 directions, and a page more per 200 outages'
        : '2 directions';
  return `  ${k.item.padEnd(9)} ${k.document}: ${areas}, ${k.windows} window(s), ${k.requests} request(s)${k.item === 'outages' ? ' or more' : ''} (${how})`;
}

/**
 * The plan as lines, e.g.
 * `plan: 11 window(s), 19 request(s); at 300 requests/min at least 4s (ENTSOE_REQUESTS_PER_MINUTE)`,
 * then one line per data kind, then what earlier runs already loaded.
 */
export function planLines(plan: RequestPlan, context: PlanContext = {}): string[] {
  const head =
    plan.windows === 0
      ? 'plan: nothing to fetch'
      : `plan: ${plan.windows} window(s), ${plan.requests} request(s); at ${plan.requestsPerMinute} requests/min at least ${formatDuration(plan.paceMs)} (ENTSOE_REQUESTS_PER_MINUTE)`;
  return [head, ...plan.kinds.map(kindLine), ledgerLine(context)];
}
