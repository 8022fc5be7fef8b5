import { map } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';
import { contentSignature } from '../parsers/page-signature';

export const contentSignatureConfigSchema = z.strictObject({
  type: z.literal('content_signature'),
  /** Which documents get a signature (logical index); others pass untouched. */
  index: z.string().default('pages'),
  field: z.string().default('text'),
  target: z.string().default('content_signature'),
});

/**
 * The signature of a page's extracted main text (see parsers/page-signature): what the sink's
 * versioned indices compare, so a page whose text did not change is not re-indexed and one whose
 * text changed keeps its earlier version. Runs after the extraction stage.
 */
export const contentSignatureStage = defineStage({
  type: 'content_signature',
  kind: 'enricher',
  stateless: true,
  schema: contentSignatureConfigSchema,
  build: (config) => map((env) => {
    const text = env.doc.body[config.field];
    if (env.doc.index === config.index && typeof text === 'string') env.doc.body[config.target] = contentSignature(text);
    return env;
  }),
});
