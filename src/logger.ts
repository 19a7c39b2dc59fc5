import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** The service logger: JSON lines on stdout at the configured level. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({ level: config.LOG_LEVEL, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
