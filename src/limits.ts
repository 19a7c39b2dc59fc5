/**
 * The fixed limits and costs of the API, in one place: page sizes, bin widths of the scatter, the
 * rate-limit costs of a request and a subscription, and the bounds on a GraphQL request (body,
 * variables, document, operation). Configurable settings and their defaults live in `config.ts`.
 */

/** Page sizes in rows: the largest a client may ask for, and the default of a GraphQL page. */
export const PAGE_LIMITS = {
  /** /flows `limit` (docs/contract.md#paging; also its default) and GraphQL `flows(first)`. */
  flows: 20_000,
  /** GraphQL `prices(first)`. */
  prices: 10_000,
  /** GraphQL `first` when omitted, on every connection. */
  graphqlDefault: 1_000,
} as const;

/** Points of each flow duration curve (REST and GraphQL `points`): 101 is every whole percent. */
export const DURATION_POINTS = { min: 2, max: 1_001, default: 101 } as const;

/** Input sizes of GraphQL arguments checked before a resolver runs. */
export const ARG_LIMITS = {
  /** Entries of a list argument (`zones`, `borders`). */
  listEntries: 200,
  /** Characters of a single code argument (`zone(code:)`). */
  codeChars: 40,
} as const;

/** Width of the flow bins of the flow-price scatter (REST flow_bin_mw, GraphQL flowBinMw), MW. */
export const FLOW_BIN_MW = { min: 1, max: 10_000, default: 50 } as const;

/** Width of the price-difference bins of the flow-price scatter (REST price_bin, GraphQL priceBin), EUR/MWh. */
export const PRICE_BIN_EUR_MWH = { min: 0.01, max: 1_000, default: 1 } as const;

/**
 * Tokens one REST request takes from the caller's bucket; a GraphQL root field with the `@rateLimit`
 * defaults takes the same (see security/graphql.ts for other rates).
 */
export const REQUEST_COST_TOKENS = 1;

/** Response compression (http/compression.ts). */
export const COMPRESSION = {
  /** Bodies shorter than this go out uncompressed, bytes. */
  thresholdBytes: 1_024,
  /** zlib level of gzip (1 fastest … 9 smallest) for bodies compressed whole. */
  gzipLevel: 6,
  /** Brotli quality (0 … 11) for bodies compressed whole: smaller than gzip 6 at a similar speed. */
  brotliQuality: 5,
  /**
   * Bodies that end within this many bytes are compressed whole, in one pass, at the levels above;
   * longer ones stream at the bulk levels below, bytes.
   */
  wholeUpToBytes: 256 * 1_024,
  /** gzip level of long streamed bodies: a 9.5 MB JSON answer in ~30 ms instead of ~140 ms, 780 KB instead of 520 KB. */
  gzipBulkLevel: 1,
  /** Brotli quality of long streamed bodies: ~3x faster than quality 5 on a 9.5 MB JSON answer, 590 KB instead of 460 KB. */
  brotliBulkQuality: 4,
  /** Input after which a streamed body's compressor is flushed, bytes. */
  flushEveryBytes: 64 * 1_024,
} as const;

/** The server-side REST response cache (rest/cache.ts) and HTTP caching headers (http/cache-control.ts). */
export const RESPONSE_CACHE = {
  /** Bytes of all cached bodies together. */
  maxBytes: 64 * 1_024 * 1_024,
  /** A body larger than this is streamed but not cached, bytes. */
  maxEntryBytes: 1_024 * 1_024,
  /**
   * A body up to this size is read whole before it is sent and gets an ETag (a hash of it); a larger
   * one is streamed without one, bytes. Covers a full page of every endpoint in every format (a
   * 20,000-row /flows page is about 1.8 MB of JSON) while bounding what each answer holds in memory.
   */
  maxTaggedBytes: 8 * 1_024 * 1_024,
  /** Ranges ending more than this before now count as settled, ms (48 h). */
  settledAfterMs: 48 * 3_600_000,
  /** max-age of responses over settled ranges, s. */
  settledMaxAgeS: 3_600,
  /** max-age of responses touching the last 48 h, the future or `now`, s; also the longest a server-side entry of a `now` query lives. */
  recentMaxAgeS: 60,
  /** Entries of the GraphQL response cache. */
  graphqlEntries: 1_000,
  /** Results kept by the read memo (repositories/sql/read-memo.ts): a response's upstream sources per range and zones. */
  readMemoEntries: 1_000,
  /** Longest a read memo result lives, ms (as the cache entries of recent ranges: recentMaxAgeS). */
  readMemoTtlMs: 60_000,
} as const;

/**
 * Live data events (events/hub.ts): unread events a subscription stream holds, after coalescing
 * (one per kind, item and zones or borders). A stream that would hold more is ended (SLOW_CONSUMER).
 */
export const SUBSCRIPTION_QUEUE = { maxPending: 512 } as const;

/**
 * Largest GraphQL request body accepted, bytes (declared `Content-Length`; past it 413): generous for
 * any query this schema allows (graphql/plugins/use-body-limit.ts).
 */
export const MAX_GRAPHQL_BODY_BYTES = 100_000;

/**
 * Bounds on the `variables` and `extensions` of a GraphQL request, each (graphql/plugins/use-variable-limits.ts).
 * Far above what any argument of this schema takes (a list of at most 200 codes, two levels), and low
 * enough that nothing walking them recursively afterwards (variable coercion, the response cache's
 * key, JSON.stringify) runs out of stack or time.
 */
export const VARIABLE_LIMITS = {
  /** Nesting of objects and arrays, levels (the parameter itself is level 1). */
  depth: 16,
  /** Values in all (objects, arrays and scalars), count. */
  values: 2_000,
} as const;

/**
 * Bounds on a GraphQL document, checked while parsing (graphql/plugins/use-parse-limits.ts). graphql-js
 * parses by recursive descent, so without the nesting bound a document nested a few thousand levels
 * deep exhausts the stack before any depth limit applies. Both are far above what the operation
 * limits ({@link GRAPHQL_LIMITS}) let run.
 */
export const PARSE_LIMITS = {
  /** Lexical tokens (graphql-js `maxTokens`), count. */
  tokens: 5_000,
  /** Nesting of `{`, `[` and `(`, levels. */
  nesting: 64,
} as const;

/**
 * Limits on every GraphQL operation besides complexity (graphql/plugins/use-complexity-limit.ts). The
 * complexity limit (1 per selected field, lists x10, connections x `first`) is computed from the
 * schema by `complexityBudget` (graphql/plugins/complexity-budget.ts): the widest documented page fits.
 */
export const GRAPHQL_LIMITS = {
  /** Depth of selections, levels. */
  depth: 10,
  /** Breadth: selections in all, aliases included, count. */
  breadth: 120,
} as const;

/** Tokens one subscription start takes from the caller's bucket: one, like a REST request (events/gate.ts). */
export const SUBSCRIPTION_COST = 1;

/**
 * Default `duration` of the `@rateLimit` directive, s (security/graphql.ts): a field without
 * arguments costs {@link REQUEST_COST_TOKENS}, as a REST request does.
 */
export const DEFAULT_RATE_DURATION = 60;
