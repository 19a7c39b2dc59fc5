import type { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';

/** The schema under optional/default wrappers (arrays are not unwrapped to their elements). */
function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  while ('unwrap' in s && typeof s.unwrap === 'function' && s.def.type !== 'array') s = s.unwrap() as z.ZodType;
  return s;
}

function isArrayParam(schema: z.ZodType): boolean {
  return unwrapped(schema).def.type === 'array';
}

/** The schema of an array parameter's elements (under optional/default wrappers). */
function elementOf(schema: z.ZodType): z.ZodType {
  return (unwrapped(schema) as z.ZodArray).element as z.ZodType;
}

/** `int` or `float` for a numeric parameter, null for any other. */
function numberKind(schema: z.ZodType | undefined): 'int' | 'float' | null {
  if (!schema) return null;
  const s = unwrapped(schema);
  if (s.def.type !== 'number') return null;
  return (s as z.ZodNumber).isInt ? 'int' : 'float';
}

/** FastAPI's parsing errors of numeric query parameters. */
const PARSING = {
  int: { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' },
  float: { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' },
} as const;

/** Number texts as Pydantic reads them: decimal literals (an integer may end in `.0`); no hex, no blanks. */
const NUMBER_TEXT = {
  int: /^\s*[+-]?\d+(?:\.0*)?\s*$/,
  float: /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/,
} as const;

/** `resolution` values read case-insensitively: `1h` is `1H`, `1d` is `1D`, `1w` is `1W`. */
const RESOLUTION_SPELLINGS: Readonly<Record<string, string>> = { '1h': '1H', '1d': '1D', '1w': '1W' };

/**
 * Reads query parameters into a plain object: declared arrays take every value, scalars the last
 * one, unknown parameters are ignored (FastAPI behaviour; the response names them, see
 * ignored-params.ts). `resolution=1h` reads as `1H` (and `1d`, `1w` alike).
 */
export function readQuery(schema: z.ZodObject, params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const values = params.getAll(name);
    if (values.length === 0) continue;
    const value = isArrayParam(field as z.ZodType) ? values : values[values.length - 1];
    out[name] = name === 'resolution' && typeof value === 'string' ? (RESOLUTION_SPELLINGS[value] ?? value) : value;
  }
  return out;
}

function issueType(issue: z.core.$ZodIssue, kind: 'int' | 'float' | null): string {
  switch (issue.code) {
    case 'invalid_value':
      return 'enum';
    case 'invalid_type':
      return kind ? PARSING[kind].type : `${issue.expected}_type`;
    case 'too_small':
      return 'greater_than_equal';
    case 'too_big':
      return 'less_than_equal';
    default:
      return 'value_error';
  }
}

function issueMessage(issue: z.core.$ZodIssue, kind: 'int' | 'float' | null): string {
  switch (issue.code) {
    case 'invalid_value':
      return `Input should be ${issue.values
        .map((v) => `'${String(v)}'`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`;
    case 'invalid_type':
      return kind ? PARSING[kind].msg : issue.message;
    case 'too_small':
      return `Input should be greater than or equal to ${String(issue.minimum)}`;
    case 'too_big':
      return `Input should be less than or equal to ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

/** Parsing issues of numeric parameters whose text is not a number (`abc`, blank, `0x10`, `1.5` for an integer). */
function numberTextIssues(schema: z.ZodObject, raw: Record<string, unknown>): InputIssue[] {
  return Object.entries(raw).flatMap(([param, value]) => {
    const kind = numberKind(schema.shape[param] as z.ZodType | undefined);
    if (!kind || typeof value !== 'string' || NUMBER_TEXT[kind].test(value)) return [];
    return [{ param, ...PARSING[kind], input: value }];
  });
}

/** The declared string of an enum schema equal to `value`, else `value`. */
function declaredValue(schema: z.ZodType, value: unknown): unknown {
  const s = unwrapped(schema);
  if (s.def.type !== 'enum') return value;
  return (s as z.ZodEnum).options.find((option) => option === value) ?? value;
}

/**
 * `data` with each value of an enum parameter (or list element) replaced by the schema's declared
 * string. A value read from a URL is a fresh string; Node 22.23's optimising compiler (V8 12.4)
 * has been seen to take such a `'1H'` for unequal to the literal `'1H'` once the code comparing
 * them was hot (an hourly export row got the covered hours of a week); declared strings compare
 * as they should.
 */
function withDeclaredValues<T extends Record<string, unknown>>(schema: z.ZodObject, data: T): T {
  const out: Record<string, unknown> = { ...data };
  for (const [name, value] of Object.entries(data)) {
    const field = schema.shape[name] as z.ZodType | undefined;
    if (!field) continue;
    out[name] =
      Array.isArray(value) && isArrayParam(field)
        ? value.map((v) => declaredValue(elementOf(field), v))
        : declaredValue(field, value);
  }
  return out as T;
}

/**
 * Validates a query object; every invalid parameter becomes a FastAPI-style {@link InputIssue},
 * in the order the schema declares the parameters. @throws InputError
 */
export function parseQuery<Q extends z.ZodObject>(schema: Q, raw: Record<string, unknown>): z.infer<Q> {
  const unreadable = numberTextIssues(schema, raw);
  const rest = Object.fromEntries(Object.entries(raw).filter(([k]) => !unreadable.some((i) => i.param === k)));
  const result = schema.safeParse(rest);
  if (result.success && unreadable.length === 0) return withDeclaredValues(schema, result.data);
  const issues: InputIssue[] = (result.error?.issues ?? []).map((i) => {
    const param = String(i.path[0] ?? 'query');
    const kind = numberKind(schema.shape[param] as z.ZodType | undefined);
    return { param, msg: issueMessage(i, kind), type: issueType(i, kind), input: raw[param] };
  });
  throw new InputError(inParamOrder(schema, [...unreadable, ...issues]));
}

/** Issues sorted as the schema declares their parameters (stable; unknown names last). */
export function inParamOrder(schema: z.ZodObject, issues: readonly InputIssue[]): InputIssue[] {
  const order = Object.keys(schema.shape);
  const rank = (i: InputIssue) => (order.includes(i.param) ? order.indexOf(i.param) : order.length);
  return [...issues].sort((a, b) => rank(a) - rank(b));
}

/** Runs a handler; its input errors come out with their issues in the schema's parameter order. */
export async function inQueryOrder<T>(schema: z.ZodObject, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof InputError) || err.issues.length < 2) throw err;
    throw new InputError(inParamOrder(schema, err.issues));
  }
}
