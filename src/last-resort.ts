/**
 * The process's last line of defence against errors nothing else handled. The rule:
 * - an unhandled promise rejection is logged (level error, with an `errorId` and the stack) and
 *   the server goes on: it is the failure of one piece of work that nothing waits for;
 * - an uncaught exception is logged (level fatal, with an `errorId`) and, once the server is
 *   ready, it goes on too: the exception ended the handler that threw it (a request's, a socket's,
 *   a timer's) and the state shared by requests lives in the database. More than
 *   {@link MAX_UNCAUGHT_PER_MINUTE} in one minute mean something stays broken: then the server
 *   stops (the shutdown drain, exit code 1) for its supervisor to restart it. Before the server is
 *   ready, the first one ends the start.
 * The `errorId` lets an operator match a report to its log line; clients never see the error.
 */
import { randomUUID } from 'node:crypto';

/** Uncaught exceptions within a minute beyond which the server stops. */
export const MAX_UNCAUGHT_PER_MINUTE = 10;

const MINUTE_MS = 60_000;

/** Options of {@link installLastResort}. */
export interface LastResortOptions {
  readonly logger: { error(fields: object, msg: string): void; fatal(fields: object, msg: string): void };
  /** Whether the server has finished starting. */
  readonly ready: () => boolean;
  /** Stops the server with exit code 1 (called once). */
  readonly stop: (reason: 'uncaughtException') => void;
  /** Clock, ms. Default `performance.now`. */
  readonly now?: () => number;
}

const asError = (value: unknown): Error => (value instanceof Error ? value : new Error(String(value)));

/** Installs the `unhandledRejection` and `uncaughtException` handlers of {@link LastResortOptions} on `proc`. */
export function installLastResort(proc: Pick<NodeJS.EventEmitter, 'on'>, opts: LastResortOptions): void {
  const now = opts.now ?? (() => performance.now());
  const recent: number[] = [];
  let stopping = false;
  proc.on('unhandledRejection', (reason: unknown) => {
    opts.logger.error({ errorId: randomUUID(), err: asError(reason) }, 'unhandled rejection; serving on');
  });
  proc.on('uncaughtException', (error: unknown) => {
    const at = now();
    recent.push(at);
    while (recent.length > 0 && (recent[0] as number) <= at - MINUTE_MS) recent.shift();
    const stop = !opts.ready() || recent.length > MAX_UNCAUGHT_PER_MINUTE;
    opts.logger.fatal(
      { errorId: randomUUID(), err: asError(error) },
      stop ? 'uncaught exception; stopping' : 'uncaught exception; serving on',
    );
    if (!stop || stopping) return;
    stopping = true;
    opts.stop('uncaughtException');
  });
}
