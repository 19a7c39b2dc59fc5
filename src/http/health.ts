import type { Plugin } from 'graphql-yoga';
import type { Database } from '../db/client.js';
import type { FollowerStatus } from '../ingest/server-follow.js';
import { pendingMigrations } from '../db/migrate.js';
import type { Logger } from '../logger.js';
import { json } from './errors.js';
import { ingestReport } from './ingest-status.js';
import { HEALTH_PATH, READY_PATH, routePath } from './paths.js';

/**
 * Readiness: the database answers and no migration is pending. Checked on the health-check
 * connection ({@link Database.probeQuery}), so a pool saturated by requests does not make it fail.
 */
export async function readiness(db: Database): Promise<{ ready: boolean; detail: string }> {
  try {
    await db.probeQuery('SELECT 1');
    const pending = await pendingMigrations({ rawQuery: db.probeQuery });
    if (pending.length) return { ready: false, detail: `pending migrations: ${pending.join(', ')}` };
    return { ready: true, detail: 'ok' };
  } catch {
    return { ready: false, detail: 'database unreachable' };
  }
}

/**
 * `/healthz` (process up, always 200) and `/readyz` (200 when ready, else 503); with the in-server
 * follower, /readyz adds its `ingest` section (last success and lag per item; not a readiness condition).
 */
export function healthPlugin(db: Database, logger: Logger, follower?: FollowerStatus): Plugin {
  return {
    onRequest({ url, endResponse }) {
      const path = routePath(url.pathname);
      if (path === HEALTH_PATH) return endResponse(json({ status: 'ok' }));
      if (path !== READY_PATH) return;
      return readiness(db).then(async (r) => {
        if (!r.ready) logger.warn({ detail: r.detail }, 'not ready');
        const ingest = follower && r.ready ? { ingest: await ingestReport(follower, Date.now()).catch(() => undefined) } : {};
        endResponse(json({ status: r.ready ? 'ready' : 'unavailable', detail: r.detail, ...ingest }, r.ready ? 200 : 503));
      });
    },
  };
}
