import { z } from 'zod';
import { META, type WireMeta } from '../contract/meta.js';
import { metaSchema, metaWriter } from '../contract/meta-rest.js';
import type { Meta } from '../services/meta.js';

/** The response meta (docs/contract.md#envelope-and-meta), from its declaration. */
export const MetaSchema = metaSchema(META);

/** FastAPI-style validation error body (docs/contract.md#validation-errors). */
export const ValidationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.int()])),
        msg: z.string(),
        type: z.string(),
        input: z.unknown().optional().meta({ description: 'The offending value as received, when there was one.' }),
      }),
    ),
  })
  .meta({ id: 'HTTPValidationError' });

/** Body of every other error: `{"detail": "..."}`. */
export const ErrorSchema = z.object({ detail: z.string() }).meta({ id: 'Error' });

/** Serialises a {@link Meta} to the wire shape of {@link MetaSchema}. */
export const metaToWire: (meta: Meta) => WireMeta = metaWriter(META);
