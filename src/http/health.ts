import type { Plugin } from 'graphql-yoga';
import type { Database } from '../db/client.js';
import type { ReplicaLag } from '../db/replicas.js';
import { databaseAppError } from '../db/errors.js';
import type { FollowerStatus } from '../ingest/server-follow.js';
import { pendingMigrations } from '../db/migrate.js';
import type { Logger } from '../logger.js';
import { json } from './errors.js';
import { ingestReport } from './ingest-status.js';
import { HEALTH_PATH, READY_PATH, routePath } from './paths.js';

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
const BUSY: Readiness = { status: 'busy', detail: `the database did not answer within ${READY_WAIT_MS / 1000} s: busy, not down` };

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
    (running ??= lagOf().catch(() => undefined).finally(() => {
      running = undefined;
    }));
  return () => within(check(), READY_WAIT_MS).then((replicas) => (replicas ? { replicas } : {}));
}

/**
 * `/healthz` (process up, always 200) and `/readyz` (200 when ready or busy, else 503; see
 * {@link readinessMonitor}); with the in-server follower, a ready /readyz adds its `ingest`
 * section (last success and lag per item; not a readiness condition), when it comes in time;
 * reading from replicas, its `replicas` section (see {@link replicaSection}).
 */
export function healthPlugin(db: Database, logger: Logger, follower?: FollowerStatus): Plugin {
  const ready = readinessMonitor(db);
  const replicas = replicaSection(db);
  return {
    onRequest({ url, endResponse }) {
      const path = routePath(url.pathname);
      if (path === HEALTH_PATH) return endResponse(json({ status: 'ok' }));
      if (path !== READY_PATH) return;
      const lag = replicas();
      return ready().then(async (r) => {
        if (r.status !== 'ready') logger.warn({ status: r.status, detail: r.detail }, 'not ready');
        const report = follower && r.status === 'ready' ? await within(ingestReport(follower, Date.now()).catch(() => undefined), READY_WAIT_MS) : undefined;
        const ingest = follower && r.status === 'ready' ? { ingest: report } : {};
        endResponse(json({ ...r, ...(await lag), ...ingest }, r.status === 'unavailable' ? 503 : 200));
      });
    },
  };
}
