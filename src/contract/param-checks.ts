import { z } from 'zod';
import { DATA_CATALOGUE } from '../domain/catalogue.js';
import { parseDateTime } from '../domain/time.js';
import { parseTimeZone } from '../domain/time-zone.js';
import { InputError } from '../errors.js';
import { ARG_LIMITS } from '../limits.js';

/**
 * Checks of single parameter values, for a surface that checks each value where it arrives
 * (GraphQL arguments, before the resolver). They apply the domain's own rules, so that their
 * messages are those the services give.
 */

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
const codeList = (what: string, check: (v: string[]) => unknown) =>
  z
    .array(z.string())
    .max(ARG_LIMITS.listEntries)
    .superRefine((values, c) => {
      values.forEach((v, i) => {
        const message = failureOf(() => check([v]), `Invalid ${what}`);
        if (message) c.addIssue({ code: 'custom', path: [i], message });
      });
    });

/** A datetime bound: the grammar and supported range of {@link parseDateTime}. */
export const datetimeCheck = z.string().superRefine((v, ctx) => {
  const parsed = parseDateTime(v, new Date());
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.msg });
});

/** Bidding zone codes or EICs. */
export const zonesCheck = codeList('zone', (v) => DATA_CATALOGUE.resolveZones(v));

/** Borders written `A->B`. */
export const bordersCheck = codeList('border', (v) => DATA_CATALOGUE.resolveBorders(v));

/** A time zone: an IANA name, UTC or local. */
export const timeZoneCheck = z.string().superRefine((v, c) => {
  const message = failureOf(() => parseTimeZone(v), 'Invalid time zone');
  if (message) c.addIssue({ code: 'custom', message });
});
