/**
 * Errors raised while reading ENTSO-E Transparency Platform replies.
 *
 * None of them ever carries the security token: messages are built from fixed text and from the
 * reply body only, and reason texts are passed through {@link redactSecrets} first.
 */

/** Base class of every error of the ENTSO-E parsing layer. */
export class EntsoeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The platform refused the security token (HTTP 401 with an HTML body, not XML).
 * The token itself is never part of the message.
 */
export class EntsoeAuthError extends EntsoeError {
  constructor() {
    super(
      'ENTSO-E rejected the security token (HTTP 401 "Unauthorized. Missing or invalid security token"): ' +
        'the configured ENTSO-E token is missing or wrong',
    );
  }
}

/**
 * The platform answered with an Acknowledgement_MarketDocument that is not "No matching data found"
 * (a bad request, a too-wide range, too many documents...), or with an unexpected HTML page.
 */
export class EntsoeUpstreamError extends EntsoeError {
  constructor(
    /** Reason code of the acknowledgement (e.g. `999`), or null when there was none. */
    readonly reasonCode: string | null,
    /** Reason text as sent by the platform (secrets redacted). */
    readonly reasonText: string,
  ) {
    super(`ENTSO-E refused the request${reasonCode ? ` (reason ${reasonCode})` : ''}: ${reasonText}`);
  }
}

/** The reply is XML, but not a document this layer understands (wrong type, namespace, units, positions...). */
export class EntsoeFormatError extends EntsoeError {}

/**
 * An A44 document holds no day-ahead series: every TimeSeries has a `contract_MarketAgreement.type`
 * other than A01 (e.g. A07 intraday auctions).
 */
export class EntsoeNotDayAheadError extends EntsoeFormatError {
  constructor(readonly contractTypes: readonly string[]) {
    super(
      `A44 document holds no day-ahead prices (contract_MarketAgreement.type A01); found ${contractTypes.join(', ')}` +
        ' (A07 = intraday auction)',
    );
  }
}

const TOKEN_LIKE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TOKEN_PARAM = /(securityToken=)[^&\s"'<]*/gi;

/** Removes anything that looks like a security token (a UUID, or a `securityToken=` parameter) from upstream text. */
export function redactSecrets(text: string): string {
  return text.replace(TOKEN_PARAM, '$1[redacted]').replace(TOKEN_LIKE, '[redacted]');
}
