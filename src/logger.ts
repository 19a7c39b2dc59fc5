import { pino, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { Config } from './config.js';

export type { Logger };

/** Where the logger writes; stdout by default. */
export interface LogOutput {
  /** Whether the output is a terminal; default: stdout's. */
  readonly isTty?: boolean;
  /** The stream written to; default: stdout (fd 1). */
  readonly destination?: NodeJS.WritableStream;
}

/** The log format LOG_FORMAT asks for, else pino's convention: readable lines on a terminal, JSON lines otherwise. */
export function logFormat(
  config: Partial<Pick<Config, 'LOG_FORMAT'>>,
  isTty: boolean = process.stdout.isTTY === true,
): 'json' | 'pretty' {
  return config.LOG_FORMAT ?? (isTty ? 'pretty' : 'json');
}

/** The service logger at the configured level: JSON lines, or pino-pretty's lines (in-process, synchronous, colours on a terminal). */
export function createLogger(
  config: Pick<Config, 'LOG_LEVEL'> & Partial<Pick<Config, 'LOG_FORMAT'>>,
  out: LogOutput = {},
): Logger {
  const options = { level: config.LOG_LEVEL, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  const isTty = out.isTty ?? process.stdout.isTTY === true;
  if (logFormat(config, isTty) === 'json') return out.destination ? pino(options, out.destination) : pino(options);
  return pino(
    options,
    PinoPretty({ sync: true, destination: out.destination ?? 1, translateTime: 'SYS:HH:MM:ss', colorize: isTty }),
  );
}
