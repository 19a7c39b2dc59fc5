/**
 * The demo's live feed (DEMO_LIVE, with SEED_DEMO): demo data events through the same NOTIFY path
 * real ingestion uses, so subscriptions and the dashboard's live mode show something with no
 * ENTSO-E token. Each tick (clock and interval settable): the demo days missing up to the end of
 * tomorrow are appended ({@link appendDemoDays}) and announced; each newly completed hour is
 * announced as a `flows` event of every demo border; the day-ahead auction of the next CET/CEST
 * delivery day is announced as a `prices` event of every demo zone when the clock passes 12:45
 * CET/CEST (the demo generates the day ahead; the event marks its usual publication). Demo data only.
 */
import { classificationThresholds, type Config } from '../config.js';
import type { Database } from '../db/client.js';
import { demoLoadWindow } from '../repositories/ingest/demo-data.js';
import type { ClassificationThresholds } from '../domain/classification.js';
import { notifyDataEvent } from '../repositories/ingest/events.js';
import { appendDemoDays } from './append.js';
import { DAY_MS, HOUR_MS, isEuSummerTime } from './calendar.js';
import { DEMO_SEED } from './generate.js';
import { DEMO_ZONE_CODES, demoBorders } from './profiles.js';

/** Options of {@link startDemoLive}. */
export interface DemoLiveOptions {
  readonly now?: () => Date;
  /** Between two ticks, ms. */
  readonly intervalMs: number;
  readonly thresholds: ClassificationThresholds;
  readonly log?: (msg: string) => void;
}

/** A running live feed. */
export interface DemoLive {
  /** One tick now (also what the timer runs). */
  tick(): Promise<void>;
  stop(): void;
}

/** Minutes after local midnight (CET/CEST) of the day-ahead auction's publication: 12:45. */
const AUCTION_MINUTE = 12 * 60 + 45;

/** The CET/CEST offset (h) at an instant. */
const cetOffsetH = (ms: number): number => 1 + (isEuSummerTime(ms) ? 1 : 0);

/** Local (CET/CEST) midnight of the day holding `ms`, epoch ms UTC. */
export function cetMidnight(ms: number): number {
  const offset = cetOffsetH(ms) * HOUR_MS;
  const local = Math.floor((ms + offset) / DAY_MS) * DAY_MS;
  return local - cetOffsetH(local - HOUR_MS) * HOUR_MS;
}

/** The auction publication (12:45 CET/CEST) of the local day holding `ms`, and the delivery day it prices [from, to). */
export function auctionOf(ms: number): { at: number; from: number; to: number } {
  const midnight = cetMidnight(ms);
  const at = midnight + AUCTION_MINUTE * 60_000;
  const from = cetMidnight(midnight + DAY_MS + 3 * HOUR_MS);
  const to = cetMidnight(from + DAY_MS + 3 * HOUR_MS);
  return { at, from, to };
}

/** Starts the live feed on `db`: a first tick at once, then one every `intervalMs`. */
export function startDemoLive(db: Database, options: DemoLiveOptions): DemoLive {
  const now = options.now ?? (() => new Date());
  const borders = demoBorders(DEMO_SEED).map((b) => `${b.a}->${b.b}`);
  let lastTick: number | null = null;
  let running: Promise<void> = Promise.resolve();
  const once = async () => {
    const t = now().getTime();
    const appended = await appendDemoDays(db, { now: new Date(t), thresholds: options.thresholds, log: options.log });
    if (appended) {
      const window = { from: new Date(appended.from), to: new Date(appended.to) };
      await notifyDataEvent(db, { item: 'prices', areas: DEMO_ZONE_CODES, ...window });
      await notifyDataEvent(db, { item: 'schedules', areas: borders, ...window });
    }
    const hour = Math.floor(t / HOUR_MS) * HOUR_MS;
    if (lastTick === null || Math.floor(lastTick / HOUR_MS) * HOUR_MS < hour) {
      await notifyDataEvent(db, { item: 'flows', areas: borders, from: new Date(hour - HOUR_MS), to: new Date(hour) });
    }
    const auction = auctionOf(t);
    if (lastTick !== null && lastTick < auction.at && t >= auction.at) {
      await notifyDataEvent(db, {
        item: 'prices',
        areas: DEMO_ZONE_CODES,
        from: new Date(auction.from),
        to: new Date(auction.to),
      });
      options.log?.(
        `demo live: day-ahead auction for ${new Date(auction.from + 3 * HOUR_MS).toISOString().slice(0, 10)} published`,
      );
    }
    lastTick = t;
  };
  const tick = () => {
    running = running.then(once).catch((err: unknown) => options.log?.(`demo live: tick failed: ${String(err)}`));
    return running;
  };
  void tick();
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}

/** {@link startDemoLive} with the settings of `config`, when the database holds a recorded demo data set (never over upstream data). */
export async function startDemoLiveIfLoaded(
  db: Database,
  config: Config,
  log: (msg: string) => void,
): Promise<DemoLive | null> {
  if (!(await demoLoadWindow(db))) return null;
  log(
    `demo live: synthetic demo data events every ${config.DEMO_LIVE_INTERVAL_SECONDS} s (DEMO_LIVE=false turns them off)`,
  );
  return startDemoLive(db, {
    intervalMs: config.DEMO_LIVE_INTERVAL_SECONDS * 1000,
    thresholds: classificationThresholds(config),
    log,
  });
}
