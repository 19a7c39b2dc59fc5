import { AsyncLocalStorage } from 'node:async_hooks';
import { databaseAppError } from './db/errors.js';
import { AppError } from './errors.js';

const scope = new AsyncLocalStorage<AbortSignal>();
const arrivals = new WeakMap<Request, number>();

/** Records when a request arrived (first call wins), so that every stage of it shares one time limit. */
export function markArrival(request: Request, at: number = performance.now()): void {
  if (!arrivals.has(request)) arrivals.set(request, at);
}

/**
 * What is left of a request's time limit of `ms`, counted from its {@link markArrival} (the whole
 * limit when it was never marked), never below 1 ms.
 */
export function remainingMs(request: Request | undefined, ms: number): number {
  const at = request ? arrivals.get(request) : undefined;
  return at === undefined ? ms : Math.max(1, ms - (performance.now() - at));
}

/**
 * The abort signal of the request whose work is running: it fires when the request's time limit
 * passes or its client goes away. Undefined outside a request (start-up, ingestion, CLI).
 * The database layer reads it to refuse new statements and cancel the running one.
 */
export function currentRequestSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/**
 * Runs `work` outside the scope of the request running it: its statements are not cancelled when
 * that request times out or its client leaves. For work that other requests share (a lookup they
 * all wait for); each of them still answers at its own deadline.
 */
export function detachedFromRequest<T>(work: () => Promise<T>): Promise<T> {
  return scope.exit(work);
}

/** The error a request gets when its time limit passes (REST 504, GraphQL TIMEOUT). */
export function timeoutError(ms: number): AppError {
  return new AppError(
    'TIMEOUT',
    `The request exceeded the ${ms / 1000} s time limit; narrow the range or page through it`,
  );
}

/** How early a timeout may be seen and still be the deadline's own: timers fire late, the server's statement timeout may come first. */
const DEADLINE_SLACK_MS = 50;

/** Whether `ms` (what was left of a time limit at `started`, a `performance.now()` reading) has run out, within {@link DEADLINE_SLACK_MS}. */
export function pastDeadline(started: number, ms: number): boolean {
  return performance.now() - started >= ms - DEADLINE_SLACK_MS;
}

/** Whether an error is a time limit seen by the database or the access layer: a TIMEOUT AppError, or a database error mapped to one. */
export function isTimeoutError(err: unknown): boolean {
  return (err instanceof AppError && err.code === 'TIMEOUT') || databaseAppError(err)?.code === 'TIMEOUT';
}

/**
 * `work`'s outcome, or a rejection with `signal`'s reason if it aborts first. Its abort listener
 * is removed as soon as either settles: a long-lived signal (a streamed response's, raced once
 * per batch) holds no reaction, hence no batch, of a step that has ended.
 */
export function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}

/** One request's time limit and abort signal, kept until its whole response has been written. */
export interface RequestLife {
  /** Aborts when the time limit passes (reason: the TIMEOUT error) or the client goes away (its reason). */
  readonly signal: AbortSignal;
  /**
   * Runs `work` with {@link currentRequestSignal} returning this life's signal; rejects with the
   * TIMEOUT error at the deadline or the client's reason when it leaves, whichever comes first.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Stops the timer and the client listener (the response is complete). Idempotent. */
  end(): void;
}

const lives = new WeakMap<AbortSignal, RequestLife>();

/**
 * Starts the life of a request whose time limit has `ms` left (`limitMs` named in its error):
 * one deadline and one abort signal shared by the first batch and every later one.
 */
export function requestLife(ms: number, clientSignal: AbortSignal | undefined, limitMs: number = ms): RequestLife {
  const controller = new AbortController();
  const started = performance.now();
  const onClientGone = () => controller.abort(clientSignal?.reason ?? new DOMException('client closed', 'AbortError'));
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    clearTimeout(timer);
    clientSignal?.removeEventListener('abort', onClientGone);
  };
  if (clientSignal?.aborted) onClientGone();
  else clientSignal?.addEventListener('abort', onClientGone, { once: true });
  timer = setTimeout(() => {
    controller.abort(timeoutError(limitMs));
    end();
  }, ms);
  timer.unref?.();
  const signal = controller.signal;
  const life: RequestLife = {
    signal,
    end,
    run<T>(work: () => Promise<T>): Promise<T> {
      if (signal.aborted) return Promise.reject(signal.reason);
      const running = scope.run(signal, work).catch((err: unknown) => {
        throw isTimeoutError(err) && pastDeadline(started, ms) ? timeoutError(limitMs) : err;
      });
      return untilAborted(signal, running);
    },
  };
  lives.set(signal, life);
  return life;
}

/** The life of the request whose work is running (see {@link requestLife}); undefined outside one. */
export function currentRequestLife(): RequestLife | undefined {
  const signal = scope.getStore();
  return signal ? lives.get(signal) : undefined;
}

/**
 * Runs a request's work under a time limit of `ms`: past it the promise rejects with
 * {@link timeoutError}, and the signal that {@link currentRequestSignal} returns inside `work`
 * aborts, so the database cancels the request's running statement and refuses its next ones.
 * `clientSignal` (the request's own signal) aborts the work too when the client disconnects.
 * `limitMs` is the limit the error names when `ms` is what remains of it. A timeout seen inside
 * `work` at the deadline (the session's `statement_timeout`, which is the same limit, a pool wait
 * or a statement cancelled then) rejects with that same error, whichever is seen first; one seen
 * earlier (a statement cancelled because its client left) passes through as it is.
 */
export function withDeadline<T>(
  ms: number,
  clientSignal: AbortSignal | undefined,
  work: () => Promise<T>,
  limitMs: number = ms,
): Promise<T> {
  const life = requestLife(ms, clientSignal, limitMs);
  return life.run(work).finally(() => life.end());
}

/**
 * Runs `work` with `signal` as the request signal its statements read ({@link currentRequestSignal}):
 * for work that outlives one deadline (a streamed export, whose every batch has a time limit of its
 * own), the caller aborts `signal` when the client leaves or a batch is late.
 */
export function withRequestSignal<T>(signal: AbortSignal, work: () => T): T {
  return scope.run(signal, work);
}
