import { z } from 'zod';

const bool = (fallback: boolean) => z.stringbool().default(fallback);
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/ });
/** One URL or a comma-separated list of them. */
const postgresUrls = z
  .string()
  .transform((list) =>
    list
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
  )
  .pipe(z.array(postgresUrl).min(1, 'needs at least one URL'));

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: postgresUrl.optional(),
    DATABASE_DIRECT_URL: postgresUrl.optional(),
    DATABASE_READ_URL: postgresUrls.optional(),
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
      .default('public'),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    PGLITE_DIR: z.string().min(1).default('./data/pglite'),
    SEED_DEMO: bool(true),
    DEMO_HISTORY_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
    /**
     * With SEED_DEMO: a synthetic live feed of demo data events (new hours, the next day's auction at
     * 12:45 CET/CEST; src/demo/live.ts). Unset: on with the embedded database (one instance), off on
     * PostgreSQL, where every instance would publish its own copy.
     */
    DEMO_LIVE: z.stringbool().optional(),
    /** Seconds between two ticks of the demo live feed. */
    DEMO_LIVE_INTERVAL_SECONDS: z.coerce.number().min(0.05).max(3600).default(60),
    MIGRATE_ON_START: bool(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Log lines: `json` (one object a line), `pretty` (pino-pretty); unset: pretty when stdout is a terminal, else json. */
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    /** Seconds a SIGTERM'd server answers `/readyz` 503 while still serving, before it closes (load balancers take it out of rotation first). */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Requests one client (API key, or address) may have in flight at once (until its response is written); more get 429 (docs/operations.md). */
    INFLIGHT_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(32),
    /** Requests the instance has in flight at once, every client together; more get 503 with Retry-After. */
    INFLIGHT_PER_INSTANCE: z.coerce.number().int().min(1).max(100_000).default(128),
    /** A response whose client has not read for this long is ended and its work released, ms (0: never). */
    IDLE_WRITE_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
    GRAPHIQL: bool(true),
    GRAPHQL_INTROSPECTION: bool(true),
    PERSISTED_OPERATIONS_FILE: z.string().min(1).optional(),
    PERSISTED_OPERATIONS_ONLY: bool(false),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    RATE_LIMIT_CAPACITY: z.coerce.number().int().min(1).default(200),
    RATE_LIMIT_REFILL_PER_SECOND: z.coerce.number().positive().default(2),
    RATE_LIMIT_KEY_PREFIX: z.string().min(1).default('emk:rl:'),
    API_KEY_REQUIRED: bool(false),
    API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    RESPONSE_CACHE: bool(true),
    /** Where the committing process sends `PURGE` with the changed data's tags in `Surrogate-Key` (a shared cache in front, see deploy/varnish.vcl). */
    CACHE_PURGE_URL: z.url({ protocol: /^https?$/ }).optional(),
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    CORS_ORIGINS: z.string().default('*'),
    /** Browser origins allowed to call /mcp besides loopback ones (comma-separated, `*` any); DNS-rebinding protection. */
    MCP_ALLOWED_ORIGINS: z.string().default(''),
    /** MCP requests one client may have in flight at once on /mcp. */
    MCP_REQUESTS_IN_FLIGHT_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(8),
    ENTSOE_SECURITY_TOKEN: z.string().min(1).optional(),
    ENTSOE_API_URL: z.url().default('https://web-api.tp.entsoe.eu/api'),
    ENTSOE_REQUESTS_PER_MINUTE: z.coerce
      .number()
      .int()
      .min(1)
      .max(399, 'at most 399: the platform bans a token above 400 requests per minute')
      .default(300),
    ENTSOE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
    ENTSOE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
    SUBSCRIPTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1000).default(5),
    EXPORTS_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(2),
    EXPORT_ROWS_PER_TOKEN: z.coerce.number().int().min(1).default(10_000),
    INGEST_FOLLOW: bool(false),
    INGEST_FOLLOW_INTERVAL_MINUTES: z.coerce.number().min(1).default(15),
    INGEST_FOLLOW_LEADER_RETRY_SECONDS: z.coerce.number().positive().max(60).default(15),
    INGEST_FOLLOW_LEADER_LEASE_SECONDS: z.coerce.number().min(1).max(300).default(10),
    CLASSIFY_EPS_EUR_MWH: z.coerce.number().min(0).default(0.01),
    CLASSIFY_CONGESTION_SHARE: z.coerce.number().gt(0).max(1).default(0.97),
    CLASSIFY_MIN_FLOW_MW: z.coerce.number().min(0).default(1),
  })
  .refine((c) => !c.DATABASE_DIRECT_URL || c.DATABASE_URL, {
    path: ['DATABASE_DIRECT_URL'],
    message: 'needs DATABASE_URL (the direct connection goes beside the pooled one)',
  })
  .refine((c) => !c.DATABASE_READ_URL || c.DATABASE_URL, {
    path: ['DATABASE_READ_URL'],
    message: 'needs DATABASE_URL (the primary, for writes, keys, LISTEN and ingestion)',
  })
  .refine((c) => !c.INGEST_FOLLOW || c.ENTSOE_SECURITY_TOKEN, {
    path: ['INGEST_FOLLOW'],
    message: 'needs ENTSOE_SECURITY_TOKEN (the Transparency Platform token)',
  })
  .refine((c) => !c.PERSISTED_OPERATIONS_ONLY || c.PERSISTED_OPERATIONS_FILE, {
    path: ['PERSISTED_OPERATIONS_ONLY'],
    message: 'needs PERSISTED_OPERATIONS_FILE (the manifest of allowed operations)',
  });

/** Parsed, validated service configuration. Built once at start-up from the environment. */
export type Config = z.infer<typeof schema>;

/** Thrown when the environment holds an invalid setting; the message names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment into a {@link Config}. Empty strings count as unset.
 * @throws ConfigError listing each invalid variable and why.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, ...overrides };
}

/** Every setting at its default (the environment is not read): for modules that take a setting as an optional argument. */
export const CONFIG_DEFAULTS: Readonly<Config> = loadConfig({});

/** Days before today each `npm run ingest -- --follow` cycle covers by default (`--lookback-days`). */
export const DEFAULT_LOOKBACK_DAYS = 2;

/** Configuration for tests and tools: defaults plus overrides, ignoring the process environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig({}, { LOG_LEVEL: 'silent', PGLITE_DIR: 'memory://', SEED_DEMO: false, ...overrides });
}

/** Classification thresholds (docs/contract.md#flow-classification) from the CLASSIFY_* settings. */
export function classificationThresholds(config: Config): {
  epsEurMwh: number;
  congestionShare: number;
  minFlowMw: number;
} {
  return {
    epsEurMwh: config.CLASSIFY_EPS_EUR_MWH,
    congestionShare: config.CLASSIFY_CONGESTION_SHARE,
    minFlowMw: config.CLASSIFY_MIN_FLOW_MW,
  };
}
