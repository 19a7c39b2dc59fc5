/**
 * GraphQL side of the rate limit: graphql-rate-limit-directive's `@rateLimit(limit, duration)` on root
 * fields, spending from the same token buckets as REST.
 *
 * Cost mapping. The directive declares a rate, "`limit` calls per `duration` seconds"; a token bucket
 * refilling `r` tokens per second (RATE_LIMIT_REFILL_PER_SECOND) charges a cost per call. A field's cost
 * is the number of tokens that makes its sustained rate the declared one:
 *
 *     cost = ceil(r * duration / limit), at least 1, at most the bucket capacity
 *
 * `limit` defaults to `r * duration`, so `@rateLimit` without arguments costs {@link REQUEST_COST_TOKENS},
 * exactly like a REST request, whatever the refill. With r = 2 (the default), `@rateLimit(limit: 60,
 * duration: 60)` costs 2 and `@rateLimit(limit: 12, duration: 60)` costs 10; with r = 5 they cost 5 and 25.
 * An operation spends the sum of the costs of the limited root fields it selects (each selected
 * field is charged when it resolves); fields without the directive and introspection are free.
 */
import { getDirective } from '@graphql-tools/utils';
import {
  type DocumentNode,
  DirectiveLocation,
  getDirectiveValues,
  getOperationAST,
  GraphQLDirective,
  GraphQLIncludeDirective,
  GraphQLInt,
  GraphQLNonNull,
  type GraphQLSchema,
  GraphQLSkipDirective,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { type RateLimitArgs, rateLimitDirective } from 'graphql-rate-limit-directive';
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import { DEFAULT_RATE_DURATION, REQUEST_COST_TOKENS } from '../limits.js';
import { type AccessContext, recordDecision } from './client.js';
import { type BucketShape, type LimitDecision, retryAfterSeconds, type TokenBucketLimiter } from './token-bucket.js';

/** Name of the directive. */
export const RATE_LIMIT_DIRECTIVE = 'rateLimit';
/** Tokens one call of a field with these directive arguments costs from a bucket of this shape (see the module comment). */
export function fieldCost(args: Partial<RateLimitArgs>, shape: BucketShape): number {
  const duration = args.duration ?? DEFAULT_RATE_DURATION;
  const limit = args.limit ?? (shape.refillPerSecond * duration) / REQUEST_COST_TOKENS;
  if (!(limit > 0) || !(duration > 0))
    throw new RangeError(`@${RATE_LIMIT_DIRECTIVE} needs a positive limit and duration`);
  return Math.min(shape.capacity, Math.max(1, Math.ceil((shape.refillPerSecond * duration) / limit)));
}

/** The message of a 429 on either surface. */
export function rateLimitMessage(retryAfter: number): string {
  return `Too many requests: the rate limit is exceeded, retry in ${retryAfter} s`;
}

/** A rate-limiter-flexible result carrying the token bucket decision it was built from. */
export class TokenBucketRes extends RateLimiterRes {
  constructor(readonly decision: LimitDecision) {
    super(decision.remaining, decision.retryAfterMs, decision.cost, false);
  }
}

/** Options the directive passes to {@link TokenBucketRateLimiter}: its own plus the shared limiter. */
export interface TokenBucketDirectiveOptions extends IRateLimiterOptions {
  readonly bucket: TokenBucketLimiter;
}

/**
 * A rate-limiter-flexible limiter (for the directive's `limiterClass`) over the shared token buckets.
 * The directive builds one per distinct (limit, duration); they all spend from the same buckets, at
 * the cost their arguments map to. `consume` resolves with a {@link TokenBucketRes}, or rejects with
 * one (not an Error) when the bucket lacks the tokens, as the directive expects. It extends the
 * package's exported memory limiter only to be one of its limiter classes: its memory is never used.
 */
export class TokenBucketRateLimiter extends RateLimiterMemory {
  private readonly bucket: TokenBucketLimiter;
  /** Tokens per call. */
  readonly cost: number;

  constructor(opts: TokenBucketDirectiveOptions) {
    super(opts);
    this.bucket = opts.bucket;
    this.cost = fieldCost({ limit: opts.points, duration: opts.duration }, opts.bucket);
  }

  override async consume(key: string | number, pointsToConsume = 1): Promise<RateLimiterRes> {
    const tokens = Math.min(this.bucket.capacity, pointsToConsume * this.cost);
    const res = new TokenBucketRes(await this.bucket.consume(String(key), tokens));
    if (!res.decision.allowed) throw res;
    return res;
  }

  override async get(key: string | number): Promise<RateLimiterRes> {
    return new TokenBucketRes(await this.bucket.peek(String(key)));
  }
}

function clientId(context: Partial<AccessContext>): string {
  if (!context.client) throw new Error('rate limit: no client in the GraphQL context (is accessPlugin installed?)');
  return context.client.id;
}

function record(res: RateLimiterRes, context: Partial<AccessContext>): void {
  if (res instanceof TokenBucketRes && context.client) recordDecision(context.client, res.decision);
}

/**
 * The directive over `limiter`: `rateLimitDirectiveTransformer(schema)` wraps the resolvers of fields
 * marked `@rateLimit`. Refusals raise an AppError RATE_LIMITED (HTTP 429 with Retry-After through
 * Yoga's `extensions.http`); every decision is recorded for the RateLimit-* response headers.
 */
export function graphqlRateLimit(limiter: TokenBucketLimiter): {
  rateLimitDirectiveTransformer: (schema: GraphQLSchema) => GraphQLSchema;
} {
  const { rateLimitDirectiveTransformer } = rateLimitDirective<Partial<AccessContext>, TokenBucketDirectiveOptions>({
    name: RATE_LIMIT_DIRECTIVE,
    defaultDuration: String(DEFAULT_RATE_DURATION),
    keyGenerator: (_args, _source, _fieldArgs, context) => clientId(context),
    limiterClass: TokenBucketRateLimiter,
    limiterOptions: { bucket: limiter },
    setState: (res, _args, _source, _fieldArgs, context) => record(res, context),
    onLimit: (res) => {
      const retryAfter =
        res instanceof TokenBucketRes
          ? retryAfterSeconds(res.decision)
          : Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new AppError('RATE_LIMITED', rateLimitMessage(retryAfter), {
        retryAfter,
        http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
      });
    },
  });
  return { rateLimitDirectiveTransformer };
}

/**
 * Tokens an operation spends through `@rateLimit`, computed from its document as the directive
 * charges when it runs: the sum of {@link fieldCost} over the root fields it selects (one per
 * response key, `@skip`/`@include` applied with `variables`; fields without the directive, on the
 * field or its type, and introspection are free). A cached answer, whose resolvers do not run, is
 * charged this (see use-response-cache.ts). 0 for subscriptions and unknown operations.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  shape: BucketShape,
): number {
  const operation = getOperationAST(document, operationName);
  const root =
    operation?.operation === 'query'
      ? schema.getQueryType()
      : operation?.operation === 'mutation'
        ? schema.getMutationType()
        : null;
  if (!operation || !root) return 0;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const vars = variables ?? {};
  const included = (node: Parameters<typeof getDirectiveValues>[1]) =>
    getDirectiveValues(GraphQLSkipDirective, node, vars)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false;
  const keys = new Map<string, string>();
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (!included(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        if (!keys.has(key)) keys.set(key, sel.name.value);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  const typeLimit = getDirective(schema, root, RATE_LIMIT_DIRECTIVE)?.[0];
  const fields = root.getFields();
  let cost = 0;
  for (const name of keys.values()) {
    const field = fields[name];
    if (!field) continue;
    const limit = getDirective(schema, field, RATE_LIMIT_DIRECTIVE)?.[0] ?? typeLimit;
    if (limit) cost += fieldCost(limit as Partial<RateLimitArgs>, shape);
  }
  return cost;
}

/** The directive definition for the schema (`builder.toSchema({ directives: [...] })`). */
export const rateLimitDirectiveDefinition = new GraphQLDirective({
  name: RATE_LIMIT_DIRECTIVE,
  description: `Spends tokens from the caller's rate limit bucket when the field resolves: cost = ceil(r * duration / limit), r the bucket's refill per second (RATE_LIMIT_REFILL_PER_SECOND), at least 1 (defaults: ${REQUEST_COST_TOKENS} token, like a REST request).`,
  locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.OBJECT],
  args: {
    limit: {
      type: GraphQLInt,
      description:
        'Calls allowed per duration. Omitted: the refill per second times duration, the rate of REST requests.',
    },
    duration: {
      type: new GraphQLNonNull(GraphQLInt),
      defaultValue: DEFAULT_RATE_DURATION,
      description: 'Seconds the limit applies to.',
    },
  },
});
