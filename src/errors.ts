import { GraphQLError } from 'graphql';

/** One invalid input, in the shape of a FastAPI validation error entry. */
export interface InputIssue {
  /**
   * Name of the parameter at fault: as the surface names it (`datetime_from`, GraphQL `from`); from
   * services and domain checks, its declaration's service input field (`datetimeFrom`, contract/params.ts).
   */
  readonly param: string;
  readonly msg: string;
  /** Error class: `enum`, `value_error`, `int_parsing`, `greater_than_equal`, ... */
  readonly type: string;
  readonly input?: unknown;
  /**
   * For a list parameter: each failing value by its index, with its own message. The issue itself
   * stands for the whole parameter (REST's one entry per parameter); a surface that names list
   * entries (GraphQL `zones.0`) reports these instead.
   */
  readonly entries?: readonly EntryIssue[];
}

/** One failing value of a list parameter. */
export interface EntryIssue {
  /** Position of the value in the list, from 0. */
  readonly index: number;
  readonly msg: string;
  readonly input: unknown;
}

const SHOWN_INPUT_CHARS = 80;

/**
 * A value as a client gave it, for an error message: JSON text (strings quoted, numbers as
 * JavaScript prints them), text longer than 80 characters cut with `…`.
 */
export function shownInput(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const cut = text.length > SHOWN_INPUT_CHARS ? `${text.slice(0, SHOWN_INPUT_CHARS)}…` : text;
  return typeof value === 'string' ? JSON.stringify(cut) : cut;
}

/** Error codes carried in GraphQL `extensions.code` and mapped to HTTP status by the REST layer. */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 422,
  QUERY_TOO_COMPLEX: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  SUBSCRIPTION_LIMIT: 429,
  /** A subscription stream fell behind (its last event, never an HTTP status of its own). */
  SLOW_CONSUMER: 503,
  DATABASE_UNAVAILABLE: 503,
  TIMEOUT: 504,
  /** The client went away before its answer was ready (nginx's 499; never seen by that client, logged and counted apart from 5xx). */
  CLIENT_CLOSED: 499,
  INTERNAL_SERVER_ERROR: 500,
} as const;

/** A code of {@link ERROR_STATUS}. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes whose HTTP status a GraphQL response takes too (through Yoga's `extensions.http`, not shown
 * to clients): the request as a whole failed, whatever the other fields did.
 */
const GRAPHQL_HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  DATABASE_UNAVAILABLE: 503,
  TIMEOUT: 504,
  CLIENT_CLOSED: 499,
};

/** An error meant for the client: its message and code are safe to show. */
export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    const status = GRAPHQL_HTTP_STATUS[code];
    super(message, { extensions: { code, ...(status ? { http: { status } } : {}), ...extra } });
  }
}

/** Invalid input: one or more {@link InputIssue}s (REST 422, GraphQL BAD_USER_INPUT). */
export class InputError extends AppError {
  /** Its message names each issue's parameter and, where known, the value given: `zones.0: Unknown bidding zone: XX (got "XX")`. */
  constructor(readonly issues: readonly InputIssue[]) {
    super(
      'BAD_USER_INPUT',
      issues
        .map((i) => `${i.param}: ${i.msg}${i.input === undefined ? '' : ` (got ${shownInput(i.input)})`}`)
        .join('; '),
      {
        issues: issues.map(({ param, msg, type }) => ({ param, msg, type })),
      },
    );
  }

  /** Shorthand for a single issue. */
  static of(param: string, msg: string, type = 'value_error', input?: unknown): InputError {
    return new InputError([{ param, msg, type, input }]);
  }
}

/**
 * Gathers the issues of several checks of one request, so that its 422 names every invalid input
 * and not only the first one met (FastAPI lists each invalid parameter).
 */
export class IssueCollector {
  private readonly issues: InputIssue[] = [];

  /** The check's value, or undefined when it threw an {@link InputError} (whose issues are kept). */
  attempt<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.issues.push(...err.issues);
      return undefined;
    }
  }

  /** @throws InputError with every issue gathered, when there is any. */
  done(): void {
    if (this.issues.length) throw new InputError(this.issues);
  }
}
