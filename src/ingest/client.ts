/**
 * HTTP client of the ENTSO-E Transparency Platform RESTful API: builds GET requests with the
 * platform's parameter names, paces them under the per-token limit (400 requests per minute),
 * retries 429, 5xx, resets, timeouts and truncated bodies with exponential backoff and jitter
 * (honouring `Retry-After`), and never puts the security token in a message or a log line.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { CONFIG_DEFAULTS, type Config } from '../config.js';
import { EntsoeAuthError, EntsoeError, redactSecrets } from './entsoe/index.js';

/** Default endpoint of the platform (configurable to point at a mirror or a test server). */

/** Document types the ingestion asks for: A44 prices, A11 flows, A09 schedules, A61 NTC, A78 outages. */
export type DocumentType = 'A44' | 'A11' | 'A09' | 'A61' | 'A78';

/** One GET request. Instants are UTC and sent as `yyyyMMddHHmm`; `periodEnd` is exclusive. */
export interface EntsoeRequest {
  readonly documentType: DocumentType;
  /** EIC of `in_Domain`: the importing area (for A44 the zone itself). */
  readonly inDomain: string;
  /** EIC of `out_Domain`: the exporting area (for A44 the zone itself). */
  readonly outDomain: string;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** `contract_MarketAgreement.type`, e.g. A01 day-ahead. */
  readonly contractType?: string;
  readonly businessType?: string;
  readonly processType?: string;
  /** `offset` of a paged data item (first document to return, 0-based). */
  readonly offset?: number;
}

/** A reply the parsers can read: HTTP 200, or 400 carrying an acknowledgement document. */
export interface EntsoeReply {
  readonly status: number;
  readonly body: Uint8Array;
  readonly contentType: string | null;
}

/** What a retry is about to do, for logs and progress lines (no token, no URL). */
export interface RetryEvent {
  readonly request: string;
  readonly attempt: number;
  readonly reason: string;
  readonly delayMs: number;
}

/** Settings of {@link EntsoeClient}; only `token` is required. */
export interface EntsoeClientOptions {
  /** The security token; sent as `securityToken`, never logged. */
  readonly token: string;
  readonly baseUrl?: string;
  /** Per-attempt timeout covering headers and body, ms. Default: ENTSOE_TIMEOUT_MS's. */
  readonly timeoutMs?: number;
  /** Attempts per request including the first. Default: ENTSOE_MAX_ATTEMPTS's. */
  readonly maxAttempts?: number;
  /** Pacing: at most this many requests start per minute (the platform bans above 400). Default: ENTSOE_REQUESTS_PER_MINUTE's. */
  readonly requestsPerMinute?: number;
  /** First backoff step, ms (doubles per attempt; the wait is drawn in [step/2, step]). Default 1 000. */
  readonly backoffBaseMs?: number;
  /** Longest backoff step, ms. Default 60 000. */
  readonly backoffMaxMs?: number;
  /** Longest `Retry-After` honoured, ms (the platform's ban lasts about 10 minutes). Default 900 000. */
  readonly maxRetryAfterMs?: number;
  readonly fetch?: typeof fetch;
  /** Waits `ms`; rejects when `signal` aborts. Tests pass a fake clock. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly onRetry?: (event: RetryEvent) => void;
}

/** Retries were exhausted (the platform stayed unavailable, slow, or kept cutting replies short). */
export class EntsoeTransportError extends EntsoeError {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
  }
}

/** The platform answered with a status the ingestion cannot use (e.g. 403, 404). */
export class EntsoeHttpError extends EntsoeError {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`ENTSO-E answered HTTP ${status}${detail ? `: ${detail}` : ''}`);
  }
}

/** Formats a UTC instant as the platform's `yyyyMMddHHmm`. */
export function formatPeriod(d: Date): string {
  return d.toISOString().slice(0, 16).replace(/[-T:]/g, '');
}

/** The query parameters of a request, without the token, in the guide's recommended order. */
export function requestParams(req: EntsoeRequest): URLSearchParams {
  const p = new URLSearchParams({ documentType: req.documentType });
  if (req.contractType) p.set('contract_MarketAgreement.type', req.contractType);
  if (req.businessType) p.set('businessType', req.businessType);
  if (req.processType) p.set('processType', req.processType);
  p.set('in_Domain', req.inDomain);
  p.set('out_Domain', req.outDomain);
  if (req.offset !== undefined) p.set('offset', String(req.offset));
  p.set('periodStart', formatPeriod(req.periodStart));
  p.set('periodEnd', formatPeriod(req.periodEnd));
  return p;
}

/** A loggable one-line description of a request (never the token). */
export function describeRequest(req: EntsoeRequest): string {
  const offset = req.offset ? ` offset=${req.offset}` : '';
  return `${req.documentType} in=${req.inDomain} out=${req.outDomain} ${formatPeriod(req.periodStart)}-${formatPeriod(req.periodEnd)}${offset}`;
}

/** Parses `Retry-After` (whole seconds or an HTTP date) into ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

type Attempt = { kind: 'reply'; reply: EntsoeReply } | { kind: 'retry'; reason: string; retryAfterMs: number | null };

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * A paced, retrying client. One instance per token: the pacing slot and a `Retry-After` pause are
 * shared by every request made through it.
 */
/**
 * The client's settings from the ENTSOE_* configuration, with `token` the security token and
 * `onRetry` told of each retry (the CLI prints it, the server logs it).
 */
export function entsoeClientOptions(
  config: Config,
  token: string,
  onRetry: (event: RetryEvent) => void,
): EntsoeClientOptions {
  return {
    token,
    baseUrl: config.ENTSOE_API_URL,
    requestsPerMinute: config.ENTSOE_REQUESTS_PER_MINUTE,
    timeoutMs: config.ENTSOE_TIMEOUT_MS,
    maxAttempts: config.ENTSOE_MAX_ATTEMPTS,
    onRetry,
  };
}

export class EntsoeClient {
  private readonly o: Required<Omit<EntsoeClientOptions, 'onRetry'>> & Pick<EntsoeClientOptions, 'onRetry'>;
  private nextSlot = 0;
  /** Attempts sent so far (retries included). */
  requestCount = 0;

  /** The pace: at most this many requests start per minute. */
  get requestsPerMinute(): number {
    return this.o.requestsPerMinute;
  }

  constructor(options: EntsoeClientOptions) {
    if (!options.token) throw new EntsoeError('ENTSO-E security token is empty');
    this.o = {
      baseUrl: CONFIG_DEFAULTS.ENTSOE_API_URL,
      timeoutMs: CONFIG_DEFAULTS.ENTSOE_TIMEOUT_MS,
      maxAttempts: CONFIG_DEFAULTS.ENTSOE_MAX_ATTEMPTS,
      requestsPerMinute: CONFIG_DEFAULTS.ENTSOE_REQUESTS_PER_MINUTE,
      backoffBaseMs: 1_000,
      backoffMaxMs: 60_000,
      maxRetryAfterMs: 900_000,
      fetch: globalThis.fetch,
      sleep: (ms, signal) => delay(ms, undefined, { signal }),
      now: Date.now,
      random: Math.random,
      ...withoutUndefined(options),
      token: options.token,
    };
  }

  /**
   * Sends one request, retrying transient failures.
   * @throws EntsoeAuthError on HTTP 401 (token missing or wrong).
   * @throws EntsoeHttpError on another unusable status.
   * @throws EntsoeTransportError when every attempt failed transiently.
   * @throws the abort reason when `signal` aborts.
   */
  async get(req: EntsoeRequest, signal?: AbortSignal): Promise<EntsoeReply> {
    const label = describeRequest(req);
    for (let attempt = 1; ; attempt++) {
      await this.pace(signal);
      const outcome = await this.attempt(req, signal);
      if (outcome.kind === 'reply') return outcome.reply;
      if (attempt >= this.o.maxAttempts) {
        throw new EntsoeTransportError(`${label}: gave up after ${attempt} attempts, last: ${outcome.reason}`, attempt);
      }
      const wait = this.retryDelay(attempt, outcome.retryAfterMs);
      if (outcome.retryAfterMs !== null) this.nextSlot = Math.max(this.nextSlot, this.o.now() + wait);
      this.o.onRetry?.({ request: label, attempt, reason: outcome.reason, delayMs: wait });
      await this.o.sleep(wait, signal);
    }
  }

  private async pace(signal?: AbortSignal): Promise<void> {
    const now = this.o.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + 60_000 / this.o.requestsPerMinute;
    if (at > now) await this.o.sleep(at - now, signal);
  }

  private retryDelay(attempt: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return Math.min(retryAfterMs, this.o.maxRetryAfterMs);
    const cap = Math.min(this.o.backoffMaxMs, this.o.backoffBaseMs * 2 ** (attempt - 1));
    return Math.round(cap / 2 + (this.o.random() * cap) / 2);
  }

  private url(req: EntsoeRequest): string {
    const params = requestParams(req);
    params.set('securityToken', this.o.token);
    return `${this.o.baseUrl}?${params.toString()}`;
  }

  private async attempt(req: EntsoeRequest, signal?: AbortSignal): Promise<Attempt> {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    this.requestCount++;
    try {
      const res = await this.o.fetch(this.url(req), {
        signal: combined,
        headers: { accept: 'application/xml, application/zip, text/xml;q=0.9, */*;q=0.5' },
      });
      if (RETRY_STATUS.has(res.status)) {
        await res.body?.cancel().catch(() => undefined);
        return {
          kind: 'retry',
          reason: `HTTP ${res.status}`,
          retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), this.o.now()),
        };
      }
      const body = new Uint8Array(await res.arrayBuffer());
      return this.classify(res, body);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timeout.aborted)
        return { kind: 'retry', reason: `timed out after ${this.o.timeoutMs} ms`, retryAfterMs: null };
      if (error instanceof EntsoeError) throw error;
      return { kind: 'retry', reason: this.networkReason(error), retryAfterMs: null };
    }
  }

  private classify(res: Response, body: Uint8Array): Attempt {
    if (res.status === 401) throw new EntsoeAuthError();
    const declared = res.headers.get('content-length');
    if (declared !== null && !res.headers.get('content-encoding') && Number(declared) !== body.length) {
      return { kind: 'retry', reason: `truncated body (${body.length} of ${declared} bytes)`, retryAfterMs: null };
    }
    if (res.status === 200 && body.length === 0) return { kind: 'retry', reason: 'empty body', retryAfterMs: null };
    if (res.status !== 200 && res.status !== 400) {
      const snippet = new TextDecoder().decode(body.subarray(0, 200)).replace(/\s+/g, ' ').trim();
      throw new EntsoeHttpError(res.status, this.redact(snippet));
    }
    return { kind: 'reply', reply: { status: res.status, body, contentType: res.headers.get('content-type') } };
  }

  private networkReason(error: unknown): string {
    const e = error as { message?: string; cause?: { code?: string; message?: string } };
    const cause = e.cause?.code ?? e.cause?.message;
    return this.redact(`${e.message ?? String(error)}${cause ? ` (${cause})` : ''}`);
  }

  private redact(text: string): string {
    return redactSecrets(text.split(this.o.token).join('[redacted]'));
  }
}
