import { filter } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';

const conditionSchema = z.strictObject({
  /** Dotted path into the document body, e.g. `author.followers`. */
  field: z.string().min(1),
  min: z.number().optional(),
  max: z.number().optional(),
  /** The value must be one of these. */
  in: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
  /** Regular expression the string value must match. */
  pattern: z.string().refine((p) => {
    try {
      new RegExp(p, 'u');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression').optional(),
  min_length: z.number().int().min(0).optional(),
});

export const matchConfigSchema = z.strictObject({
  type: z.literal('match'),
  /** Which documents the filter looks at (logical index); others pass untouched. */
  index: z.string().default('posts'),
  /** Keep documents meeting every condition; the rest are dropped, counted with `reason`. */
  keep_if: z.array(conditionSchema).min(1),
  reason: z.string().regex(/^[a-z0-9_]+$/).default('filtered'),
});

type Condition = z.infer<typeof conditionSchema>;

function get(body: Record<string, unknown>, path: string): unknown {
  let v: unknown = body;
  for (const k of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

function compile(c: Condition): (body: Record<string, unknown>) => boolean {
  const re = c.pattern === undefined ? undefined : new RegExp(c.pattern, 'u');
  return (body) => {
    const v = get(body, c.field);
    if (c.min !== undefined && !(typeof v === 'number' && v >= c.min)) return false;
    if (c.max !== undefined && !(typeof v === 'number' && v <= c.max)) return false;
    if (c.in !== undefined && !c.in.includes(v as string)) return false;
    if (re && !(typeof v === 'string' && re.test(v))) return false;
    if (c.min_length !== undefined && !(typeof v === 'string' && [...v].length >= c.min_length)) return false;
    return true;
  };
}

/** Declarative keep/drop over document fields (scope by language, followers, text length …). */
export const matchStage = defineStage({
  type: 'match',
  kind: 'filter',
  stateless: true,
  schema: matchConfigSchema,
  build: (config, ctx) => {
    const tests = config.keep_if.map(compile);
    return filter((env) => {
      if (env.doc.index !== config.index || tests.every((t) => t(env.doc.body))) return true;
      ctx.drop(env, 'match', config.reason);
      return false;
    });
  },
});
