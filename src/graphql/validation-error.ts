import { InputError, type InputIssue } from '../errors.js';
import { ARG_SCHEMAS } from './arg-schemas.js';

type PathSegment = PropertyKey | { readonly key: PropertyKey };

/** A failed Standard Schema validation, as @pothos/plugin-validation reports it. */
interface ValidationFailure {
  readonly issues: readonly { readonly message: string; readonly path?: readonly PathSegment[] | undefined }[];
}

const keyOf = (p: PathSegment): PropertyKey => (typeof p === 'object' ? p.key : p);

/** The value at `path` in the arguments, or undefined where the path leads nowhere. */
function valueAt(args: Readonly<Record<string, unknown>>, path: readonly PathSegment[]): unknown {
  let value: unknown = args;
  for (const p of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[keyOf(p)];
  }
  return value;
}

const argOf = (issue: ValidationFailure['issues'][number]): string => String(keyOf(issue.path?.[0] ?? ''));

/**
 * Issues of the arguments the plugin left unchecked (it stops at the first argument that fails),
 * checked with their {@link ARG_SCHEMAS}, all in the order of the arguments.
 */
function everyArgumentIssue(
  failure: ValidationFailure,
  args: Readonly<Record<string, unknown>>,
): ValidationFailure['issues'] {
  const failed = new Set(failure.issues.map(argOf));
  const names = Object.keys(args);
  const others = names.flatMap((name) => {
    const schema = ARG_SCHEMAS[name];
    const value = args[name];
    if (!schema || failed.has(name) || value === null || value === undefined) return [];
    const result = schema.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => ({ message: i.message, path: [name, ...i.path] }));
  });
  const rank = (i: ValidationFailure['issues'][number]) =>
    names.includes(argOf(i)) ? names.indexOf(argOf(i)) : names.length;
  return [...failure.issues, ...others].sort((a, b) => rank(a) - rank(b));
}

/**
 * The BAD_USER_INPUT error of failed argument validation (@pothos/plugin-validation): one issue per
 * failure, named by its argument path (`zones.0`, `first`) and carrying the value given there, so
 * that the message reads like REST's 422 entry: `zones.0: Unknown bidding zone: XX (got "XX")`.
 * Every invalid argument is listed, not only the first one the plugin met.
 */
export function argumentValidationError(
  failure: ValidationFailure,
  args: Readonly<Record<string, unknown>>,
): InputError {
  return new InputError(
    everyArgumentIssue(failure, args).map((i): InputIssue => {
      const path = i.path ?? [];
      return {
        param: path.length ? path.map((p) => String(keyOf(p))).join('.') : 'input',
        msg: i.message,
        type: 'value_error',
        input: path.length ? valueAt(args, path) : undefined,
      };
    }),
  );
}
