import type { Plugin } from 'graphql-yoga';
import type { Database } from '../db/client.js';
import type { ReplicaLag } from '../db/replicas.js';
import { databaseAppError } from '../db/errors.js';
import type { ListenerState } from '../db/listener.js';
import type { FollowerStatus } from '../ingest/server-follow.js';
import { pendingMigrations } from '../db/migrate.js';
import type { Logger } from '../logger.js';
import { json } from '../http/errors.js';
import { ingestReport } from './ingest-status.js';
import { HEALTH_PATH, READY_PATH, routePath } from '../http/paths.js';

/** Longest `/readyz` waits for the database, in ms, before answering from what it knows. */
export const READY_WAIT_MS = 1_500;

/** `ready` and `busy` answer 200, `unavailable` 503. */
export type ReadyStatus = 'ready' | 'busy' | 'unavailable';

/** The answer of a readiness check. */
export interface Readiness {
  readonly status: ReadyStatus;
  readonly detail: string;
}

const UNREACHABLE: Readiness = { status: 'unavailable', detail: 'database unreachable' };
const BUSY: Readiness = {
  status: 'busy',
  detail: `the database did not answer within ${READY_WAIT_MS / 1000} s: busy, not down`,
};

/**
 * One readiness check, as long as the database takes: it answers and no migration is pending.
 * Checked on the health-check connection ({@link Database.probeQuery}), so a pool saturated by
 * requests does not make it fail. A statement past its time limit counts as busy, any other
 * failure as unreachable.
 */
export async function readiness(db: Database): Promise<Readiness> {
  try {
    await db.probeQuery('SELECT 1');
    const pending = await pendingMigrations({ rawQuery: db.probeQuery });
    if (pending.length) return { status: 'unavailable', detail: `pending migrations: ${pending.join(', ')}` };
    return { status: 'ready', detail: 'ok' };
  } catch (error) {
    return databaseAppError(error)?.code === 'TIMEOUT' ? BUSY : UNREACHABLE;
  }
}

function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Readiness answered within {@link READY_WAIT_MS}: one check runs at a time (later callers share
 * it, so checks never pile up behind a busy database); a check still running then answers busy,
 * unless the embedded engine's thread has ended or the last finished check found the database
 * unreachable (refused, dropped, or no connection opened in time).
 */
export function readinessMonitor(db: Database): () => Promise<Readiness> {
  let running: Promise<Readiness> | undefined;
  let last: Readiness | undefined;
  const check = () =>
    (running ??= readiness(db).then((r) => {
      last = r;
      running = undefined;
      return r;
    }));
  return async () => {
    if (db.engineAlive?.() === false) return UNREACHABLE;
    const answered = await within(check(), READY_WAIT_MS);
    if (answered) return answered;
    if (db.engineAlive?.() === false || last === UNREACHABLE) return UNREACHABLE;
    return BUSY;
  };
}

/** Longest the data events listener may be down (reconnecting) before `/readyz` answers 503, ms: past it, caches and ETags may be stale. */
export const EVENTS_DOWN_UNREADY_MS = 10_000;

/** What `/readyz` reports besides the database. */
export interface ReadySources {
  /** The in-server follower (INGEST_FOLLOW): reported only, never a readiness condition. */
  readonly follower?: FollowerStatus;
  /** The data events listener's state: down longer than {@link EVENTS_DOWN_UNREADY_MS} makes the instance unready. */
  readonly events?: () => ListenerState;
  /** True once a SIGTERM began the drain: `/readyz` answers 503 `draining` while requests are still served. */
  readonly draining?: () => boolean;
  /** Clock, ms since epoch. */
  readonly now?: () => number;
}

const DRAINING = {
  status: 'draining',
  detail: 'shutting down: serving the requests in flight, not taking new ones from the balancer',
};

/** The `/readyz` `events` section, and whether the listener has been down too long. */
function eventsReport(
  state: ListenerState,
  now: number,
): { events: { state: ListenerState['state']; since: string }; stale: boolean } {
  const stale = state.state === 'reconnecting' && now - state.since > EVENTS_DOWN_UNREADY_MS;
  return { events: { state: state.state, since: new Date(state.since).toISOString() }, stale };
}

/**
 * `/readyz`'s `replicas` section when reading from replicas (DATABASE_READ_URL): each replica's
 * {@link ReplicaLag}, checked beside the readiness check and as long (so no later answer), one check
 * at a time (later callers share it); omitted when late or when the primary does not answer. Not a
 * readiness condition: a lagging replica serves older data, it does not fail requests.
 */
function replicaSection(db: Database): () => Promise<{ replicas?: ReplicaLag[] }> {
  const lagOf = db.replicaLag;
  if (!lagOf) return () => Promise.resolve({});
  let running: Promise<ReplicaLag[] | undefined> | undefined;
  const check = () =>
    (running ??= lagOf()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      }));
  return () => within(check(), READY_WAIT_MS).then((replicas) => (replicas ? { replicas } : {}));
}

/**
 * `/healthz` (process up, always 200) and `/readyz`: 200 when ready or busy, else 503 — the
 * database unreachable or not migrated ({@link readinessMonitor}), the data events listener down
 * longer than {@link EVENTS_DOWN_UNREADY_MS} (this instance's caches would serve stale data), or
 * the drain after SIGTERM. With the in-server follower, a ready /readyz adds its `ingest` section
 * (last success and lag per item, the last cycles' outcome; never a readiness condition: an
 * upstream outage must not take every instance out of the balancer), when it comes in time;
 * reading from replicas, its `replicas` section (see {@link replicaSection}).
 */
export function healthPlugin(db: Database, logger: Logger, sources: ReadySources = {}): Plugin {
  const ready = readinessMonitor(db);
  const { follower } = sources;
  const now = sources.now ?? Date.now;
  const replicas = replicaSection(db);
  return {
    onRequest({ url, endResponse }) {
      const path = routePath(url.pathname);
      if (path === HEALTH_PATH) return endResponse(json({ status: 'ok' }));
      if (path !== READY_PATH) return;
      if (sources.draining?.()) return endResponse(json(DRAINING, 503, { 'cache-control': 'no-store' }));
      const lag = replicas();
      return ready().then(async (db) => {
        const events = sources.events ? eventsReport(sources.events(), now()) : undefined;
        const r: Readiness =
          db.status === 'ready' && events?.stale
            ? {
                status: 'unavailable',
                detail: `data events listener down since ${events.events.since}: cached answers may be stale`,
              }
            : db;
        if (r.status !== 'ready') logger.warn({ status: r.status, detail: r.detail }, 'not ready');
        const report =
          follower && r.status === 'ready'
            ? await within(
                ingestReport(follower, now()).catch(() => undefined),
                READY_WAIT_MS,
              )
            : undefined;
        const ingest = follower && r.status === 'ready' ? { ingest: report } : {};
        endResponse(
          json(
            { ...r, ...(events ? { events: events.events } : {}), ...(await lag), ...ingest },
            r.status === 'unavailable' ? 503 : 200,
          ),
        );
      });
    },
  };
}
