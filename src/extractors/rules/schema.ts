import { z } from 'zod';
import { regexString } from '../../core/regex-string';

/** One way to read a value out of an element: CSS selector, then what to take, then clean-up. */
export const fieldRuleSchema = z.strictObject({
  /** CSS selector, relative to the page or to the list item. */
  selector: z.string().min(1),
  /** text: block-aware visible text; attr: an attribute; html: inner HTML. */
  type: z.enum(['text', 'attr', 'html']).default('text'),
  attr: z.string().min(1).optional(),
  /** Every match (an array) instead of the first one. */
  all: z.boolean().default(false),
  /** Selectors removed inside the match before reading it (quotes, signatures…). */
  exclude: z.array(z.string().min(1)).default([]),
  /** Keep the first capture group (or the whole match) of this pattern; no match gives null. */
  regex: regexString.optional(),
  /** Rewrites applied in order after `regex`. */
  replace: z.array(z.strictObject({ pattern: regexString, with: z.string() })).default([]),
  /** Read the value as a date and normalise it to ISO 8601. */
  date: z.boolean().default(false),
  /** Offset appended to dates written without one (`+08:00` for Discuz boards in China time). */
  utcOffset: z.string().regex(/^[+-]\d{2}:\d{2}$|^Z$/).optional(),
  /** Resolve the value against the page URL. */
  url: z.boolean().default(false),
}).superRefine((r, ctx) => {
  if (r.type === 'attr' && !r.attr) ctx.addIssue({ code: 'custom', message: 'type "attr" needs "attr"', path: ['attr'] });
});

/**
 * A field: one rule, or several tried in order until one gives a non-empty value. A single rule
 * is read as a list of one, so that errors name the exact rule (`fields.title.0.type`).
 */
export const fieldSchema = z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(fieldRuleSchema).min(1));

const fieldsSchema = z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/), fieldSchema);

export const ruleSetSchema = z.strictObject({
  name: z.string().min(1),
  /** The rule set applies to a URL matching any prefix or any pattern. */
  match: z.strictObject({
    prefix: z.array(z.string().min(1)).default([]),
    regex: z.array(regexString).default([]),
  }).refine((m) => m.prefix.length + m.regex.length > 0, { message: 'match needs a prefix or a regex' }),
  /** Page-level fields (thread title, board…). */
  fields: fieldsSchema.default({}),
  /** One document per matching element (a post of a thread page). */
  list: z.strictObject({
    selector: z.string().min(1),
    fields: fieldsSchema,
    /** Items whose listed fields are all empty are dropped. */
    required: z.array(z.string()).default([]),
  }).optional(),
  /** Link to the next page of the same listing or thread. */
  pagination: z.strictObject({ selector: z.string().min(1), attr: z.string().default('href') }).optional(),
  /**
   * The page itself is one `pages` document for the text_density stage (an article page), read
   * by the web_pages adapter; its links and pagination are still followed.
   */
  page_document: z.boolean().default(false),
  /** Links to follow (threads of a board page, for example). */
  links: z.strictObject({
    selector: z.string().min(1),
    attr: z.string().default('href'),
    regex: regexString.optional(),
  }).optional(),
});

export const ruleSetsSchema = z.array(ruleSetSchema);

export type FieldRule = z.infer<typeof fieldRuleSchema>;
export type Field = z.infer<typeof fieldSchema>;
export type RuleSet = z.infer<typeof ruleSetSchema>;
export type RuleSetInput = z.input<typeof ruleSetSchema>;

/** Validates rule sets (strict: unknown keys are errors); throws with every problem listed. */
export function parseRuleSets(input: unknown): RuleSet[] {
  const res = ruleSetsSchema.safeParse(input);
  if (!res.success) {
    const problems = res.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid html_rules rule sets:\n  ${problems.join('\n  ')}`);
  }
  return res.data;
}
