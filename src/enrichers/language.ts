import { map } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';

export const languageConfigSchema = z.strictObject({
  type: z.literal('language'),
  /** The text field to read and the field to write. */
  field: z.string().default('text'),
  target: z.string().default('lang'),
  /** Keep a language the adapter already set. */
  overwrite: z.boolean().default(false),
});

/**
 * zh / en / other from the script mix: Han characters (and kana-free CJK) decide `zh`, Latin
 * letters `en`. Microblog posts are short and mixed; a script count is fast and right for the
 * two languages freshet's analyses target, and honest (`other`) about the rest.
 */
export function detectLanguage(text: string): 'zh' | 'en' | 'other' {
  let han = 0;
  let latin = 0;
  let otherLetters = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf)) han++;
    else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) latin++;
    else if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0x0400 && c <= 0x04ff) || (c >= 0x0600 && c <= 0x06ff)) otherLetters++;
  }
  // A Han character carries about as much as a short Latin word.
  if (han * 3 >= latin && han > otherLetters && han > 0) return 'zh';
  if (latin > 0 && latin >= otherLetters * 2) return 'en';
  return 'other';
}

export const languageStage = defineStage({
  type: 'language',
  kind: 'enricher',
  stateless: true,
  schema: languageConfigSchema,
  build: (config) => map((env) => {
    const body = env.doc.body;
    if (!config.overwrite && typeof body[config.target] === 'string') return env;
    const text = body[config.field];
    if (typeof text === 'string') body[config.target] = detectLanguage(text);
    return env;
  }),
});
