import { z } from 'zod';
import { DATA_CATALOGUE } from '../domain/catalogue.js';
import { parseDateTime } from '../domain/time.js';
import { parseTimeZone } from '../domain/time-zone.js';
import { InputError } from '../errors.js';

/** The message of a domain check, or `fallback` for any other failure. */
function failureOf(check: () => unknown, fallback: string): string | null {
  try {
    check();
    return null;
  } catch (err) {
    return err instanceof InputError ? err.issues[0]!.msg : fallback;
  }
}

/** A list of codes checked one by one, so that each unknown code is an issue at its index (`zones.1`). */
const codeList = (param: string, check: (v: string[]) => unknown) =>
  z.array(z.string()).max(200).superRefine((values, c) => {
    values.forEach((v, i) => {
      const message = failureOf(() => check([v]), `Invalid ${param}`);
      if (message) c.addIssue({ code: 'custom', path: [i], message });
    });
  });

/** Validation of a range argument: the REST grammar and supported range of {@link parseDateTime}. */
export const rangeArgSchema = z.string().superRefine((v, ctx) => {
  const parsed = parseDateTime(v, new Date());
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.msg });
});

/** `zones`: bidding zone codes or EICs. */
export const zonesArgSchema = codeList('zones', (v) => DATA_CATALOGUE.resolveZones(v));

/** `borders`: `A->B` pairs. */
export const bordersArgSchema = codeList('borders', (v) => DATA_CATALOGUE.resolveBorders(v));

/** `timeZone`: an IANA name, UTC or local. */
export const timeZoneArgSchema = z.string().superRefine((v, c) => {
  const message = failureOf(() => parseTimeZone(v), 'Invalid timeZone');
  if (message) c.addIssue({ code: 'custom', message });
});

/**
 * The schema of each argument name that carries one, the same on every field. @pothos/plugin-validation
 * stops at the first argument that fails; these let its error list the other invalid ones too.
 */
export const ARG_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  zones: zonesArgSchema,
  borders: bordersArgSchema,
  from: rangeArgSchema,
  to: rangeArgSchema,
  timeZone: timeZoneArgSchema,
};
