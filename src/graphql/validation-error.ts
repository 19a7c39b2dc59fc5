import { InputError, type InputIssue } from '../errors.js';

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

/**
 * The BAD_USER_INPUT error of failed argument validation (@pothos/plugin-validation): one issue per
 * failure, named by its argument path (`zones.0`, `first`) and carrying the value given there, so
 * that the message reads like REST's 422 entry: `zones.0: Unknown bidding zone: XX (got "XX")`.
 */
export function argumentValidationError(failure: ValidationFailure, args: Readonly<Record<string, unknown>>): InputError {
  return new InputError(
    failure.issues.map((i): InputIssue => {
      const path = i.path ?? [];
      return { param: path.length ? path.map((p) => String(keyOf(p))).join('.') : 'input', msg: i.message, type: 'value_error', input: path.length ? valueAt(args, path) : undefined };
    }),
  );
}
