import { z } from 'zod';
import { ARG_LIMITS } from '../limits.js';

/**
 * Shape limits of parameter values, checked where a surface checks each value on arrival (GraphQL
 * arguments, before the resolver): limits that protect the server before any work. Whether a value
 * means something (a known zone, a readable datetime, a time zone) the service alone decides,
 * against the catalogue it serves.
 */

/** A list of codes (zones, borders): at most {@link ARG_LIMITS.listEntries} entries. */
export const codeListShape = z.array(z.string()).max(ARG_LIMITS.listEntries);
