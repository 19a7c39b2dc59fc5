/**
 * The server's database. With DATABASE_URL, PostgreSQL. Otherwise the server owns the embedded
 * data directory (its lock), runs the engine on a thread of its own ({@link startEngineThread})
 * and reaches it as it reaches PostgreSQL, through a pg pool over the wire protocol: a heavy
 * statement then blocks neither the event loop (`/healthz`, deadlines) nor the HTTP server. Once
 * published, the connection URL lets the CLIs and `psql` in through the same server. The engine's
 * thread starts before the database clients' modules load, so the two overlap.
 */
import { mkdirSync } from 'node:fs';
import type { Config } from '../config.js';
import type { Database } from './client.js';
import { acquireDirLock } from './dir-lock.js';
import { startEngineThread } from './engine-thread.js';
import { publishUrl } from './published-url.js';
import { dataEventsChannel } from '../events/data-events.js';

/** The server's database, and how to let other processes in. */
export interface ServerDatabase {
  readonly db: Database;
  /** Where the embedded engine can be reached; undefined on PostgreSQL or in memory. */
  readonly url?: string;
  /** Publishes {@link url} in the data directory (removed when the database closes); no-op without one. */
  publish(): void;
}

/**
 * Opens the server's database (see the module comment); `memory://` keeps PGlite in this process.
 * @throws DirectoryInUseError when another live process owns the data directory.
 */
export async function openServerDatabase(config: Config): Promise<ServerDatabase> {
  const client = () => import('./client.js');
  if (config.DATABASE_URL) return { db: await (await client()).openPostgres(config, config.DATABASE_URL), publish: () => undefined };
  const dir = config.PGLITE_DIR;
  if (dir.startsWith('memory://')) return { db: await (await client()).openPglite(dir), publish: () => undefined };
  mkdirSync(dir, { recursive: true });
  const lock = acquireDirLock(dir);
  let unpublish = () => undefined as void;
  try {
    const starting = startEngineThread(dir, [dataEventsChannel('public')]);
    starting.catch(() => undefined);
    const { openPostgres } = await client();
    const engine = await starting;
    const stopEngine = async () => {
      unpublish();
      await engine.stop();
      lock.release();
    };
    const wire = await openPostgres(config, engine.url, { embedded: true }).catch(async (error: unknown) => {
      await stopEngine();
      throw error;
    });
    const db: Database = {
      ...wire,
      notifications: { on: (channel, cb) => engine.onNotification(channel, cb) },
      engineAlive: () => engine.alive(),
      async close() {
        try {
          await wire.close();
        } finally {
          await stopEngine();
        }
      },
    };
    return { db, url: engine.url, publish: () => void (unpublish = publishUrl(dir, engine.url)) };
  } catch (error) {
    lock.release();
    throw error;
  }
}
