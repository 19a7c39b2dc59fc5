/**
 * The server's database. With DATABASE_URL, PostgreSQL: when DATABASE_DIRECT_URL (another URL) is
 * set too, DATABASE_URL is taken for a transaction pooler and DATABASE_DIRECT_URL opened beside it
 * (see `Database.direct`); otherwise a start whose session options do not arrive (a pooler refusing
 * or dropping them) fails, naming DATABASE_DIRECT_URL. A start on a read-only DATABASE_URL or
 * DATABASE_DIRECT_URL (a replica) fails, naming the setting (see `refuseReadOnly`). With DATABASE_READ_URL, reads go to the
 * replicas it lists, opened as DATABASE_URL is (through a pooler when DATABASE_DIRECT_URL is set);
 * see `readingFrom`. Otherwise the server owns the embedded
 * data directory (its lock), runs the engine on a thread of its own ({@link startEngineThread})
 * and reaches it as it reaches PostgreSQL, through a pg pool over the wire protocol: a heavy
 * statement then blocks neither the event loop (`/healthz`, deadlines) nor the HTTP server. Once
 * published, the connection URL lets the CLIs and `psql` in through the same server. The engine's
 * thread starts before the database clients' modules load, so the two overlap.
 */
import { mkdirSync } from 'node:fs';
import type { Config } from '../config.js';
import type { Database } from './client.js';
import type * as ClientModule from './client.js';
import { acquireDirLock } from './dir-lock.js';
import { startEngineThread } from './engine-thread.js';
import { publishUrl } from './published-url.js';
import { checkSessionOptions } from './pooler.js';
import { readingFrom } from './replicas.js';
import { refuseReadOnly } from './writable.js';
import { dataEventsChannel } from '../domain/data-events.js';

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
  if (config.DATABASE_URL)
    return {
      db: await openServerPrimaryAndReplicas(await client(), config, config.DATABASE_URL),
      publish: () => undefined,
    };
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

/** The server's PostgreSQL database: the primary at `url`, reading from DATABASE_READ_URL's replicas when set. */
async function openServerPrimaryAndReplicas(
  client: typeof ClientModule,
  config: Config,
  url: string,
): Promise<Database> {
  const primary = await openServerPostgres(client, config, url);
  if (!config.DATABASE_READ_URL) return primary;
  const pooled = Boolean(config.DATABASE_DIRECT_URL && config.DATABASE_DIRECT_URL !== url);
  const replicas: Database[] = [];
  try {
    for (const replicaUrl of config.DATABASE_READ_URL) {
      const replica = await client.openPostgres(config, replicaUrl, { pooled });
      replicas.push(pooled ? replica : await checkSessionOptions(replica, config, 'DATABASE_READ_URL'));
    }
  } catch (error) {
    await Promise.all([primary.close(), ...replicas.map((r) => r.close())]);
    throw error;
  }
  return readingFrom(primary, replicas);
}

/** Connections the direct database opens at most beside a pooler (migrations, one ingestion at a time). */
const DIRECT_POOL_SIZE = 4;

/** The server's PostgreSQL database at `url`, with its direct connection when DATABASE_DIRECT_URL differs (see the module comment). */
async function openServerPostgres(client: typeof ClientModule, config: Config, url: string): Promise<Database> {
  const directUrl = config.DATABASE_DIRECT_URL;
  if (!directUrl || directUrl === url)
    return refuseReadOnly(
      await checkSessionOptions(await client.openPostgres(config, url), config, 'DATABASE_URL'),
      'DATABASE_URL',
    );
  const directConfig = { ...config, DATABASE_POOL_SIZE: Math.min(config.DATABASE_POOL_SIZE, DIRECT_POOL_SIZE) };
  const direct = await refuseReadOnly(
    await checkSessionOptions(await client.openPostgres(directConfig, directUrl), config, 'DATABASE_DIRECT_URL'),
    'DATABASE_DIRECT_URL',
  );
  const pooled = await client
    .openPostgres(config, url, { pooled: true })
    .then((db) => refuseReadOnly(db, 'DATABASE_URL'))
    .catch(async (error: unknown) => {
      await direct.close();
      throw error;
    });
  return {
    ...pooled,
    direct,
    async close() {
      await Promise.all([pooled.close(), direct.close()]);
    },
  };
}
