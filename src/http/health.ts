import type { Plugin } from 'graphql-yoga';
import type { Database } from '../db/client.js';
import { pendingMigrations } from '../db/migrate.js';
import type { Logger } from '../logger.js';
import { json } from './errors.js';
import { routePath } from './paths.js';

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

/** `/healthz` (process up, always 200) and `/readyz` (200 when ready, else 503). */
export function healthPlugin(db: Database, logger: Logger): Plugin {
  return {
    onRequest({ url, endResponse }) {
      const path = routePath(url.pathname);
      if (path === '/healthz') return endResponse(json({ status: 'ok' }));
      if (path !== '/readyz') return;
      return readiness(db).then((r) => {
        if (!r.ready) logger.warn({ detail: r.detail }, 'not ready');
        endResponse(json({ status: r.ready ? 'ready' : 'unavailable', detail: r.detail }, r.ready ? 200 : 503));
      });
    },
  };
}
