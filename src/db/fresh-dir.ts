/**
 * Whether the server's embedded data directory is new (no database in it yet): then the first
 * start's demo load is certain and its data can be generated while the engine initialises.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';

/** True when the server will run the embedded engine on a directory holding no database (no `PG_VERSION`). */
export function isFreshEmbeddedDirectory(config: Pick<Config, 'DATABASE_URL' | 'PGLITE_DIR'>): boolean {
  if (config.DATABASE_URL || config.PGLITE_DIR.startsWith('memory://')) return false;
  return !existsSync(join(config.PGLITE_DIR, 'PG_VERSION'));
}
