import { concatMap, EMPTY, of } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';
import { looksMalformed } from './malformed';
import { takeParsedHtml } from './parsed-html';
import { extract } from './text-density';

export const textDensityConfigSchema = z.strictObject({
  type: z.literal('text_density'),
  /** Only documents of this logical index are extracted; others pass through. */
  index: z.string().default('pages'),
  /** Field holding the fetched HTML (string or bytes); removed once extracted (it is not indexed). */
  html_field: z.string().default('html'),
  url_field: z.string().default('url'),
  /** Field holding the response Content-Type, for decoding bytes; removed with the HTML. */
  content_type_field: z.string().default('content_type'),
  /**
   * Pages whose main text is shorter are dropped: reason `no_content`, or `parse_error` when the
   * HTML lost its structure (most `<div>`s never closed).
   */
  min_chars: z.number().int().nonnegative().default(1),
  /** Replace title/author/published_at/lang that the adapter already set. */
  overwrite: z.boolean().default(false),
});

export type TextDensityConfig = z.infer<typeof textDensityConfigSchema>;

/**
 * The `text_density` pipeline stage: main text, title, author, date and language of pages that
 * have no site rules. A page that fails to parse (`extract_error`, `parse_error`) or has no
 * content (`no_content`) is dropped with that reason.
 */
export const textDensityStage = defineStage({
  type: 'text_density',
  kind: 'extractor',
  stateless: true,
  schema: textDensityConfigSchema,
  build: (config, ctx) => concatMap((env) => {
    const body = env.doc.body;
    const html = body[config.html_field];
    if (env.doc.index !== config.index || (typeof html !== 'string' && !(html instanceof Uint8Array))) return of(env);
    const url = typeof body[config.url_field] === 'string' ? (body[config.url_field] as string) : undefined;
    const contentType = typeof body[config.content_type_field] === 'string' ? (body[config.content_type_field] as string) : undefined;
    delete body[config.html_field];
    delete body[config.content_type_field];
    const parsed = takeParsedHtml(env.doc, html);
    // A page whose markup fell apart is a parse failure, whatever text can still be scraped from
    // its one nested run (and not a page without an article).
    if (looksMalformed(html, contentType)) {
      ctx.drop(env, 'text_density', 'parse_error');
      return EMPTY;
    }
    let page: ReturnType<typeof extract>;
    try {
      page = extract(html, { url, contentType, ...(parsed ? { parsed } : {}) });
    } catch {
      ctx.drop(env, 'text_density', 'extract_error');
      return EMPTY;
    }
    if (page.text.length < config.min_chars) {
      ctx.drop(env, 'text_density', 'no_content');
      return EMPTY;
    }
    body.text = page.text;
    // modified_at is the adapter's (web_pages reads the page head, and the versioned pages index
    // derives it when absent): extract() reports the page's own for callers without an adapter.
    const fields: Record<string, string | undefined> = { title: page.title, author: page.author, published_at: page.published_at, lang: page.lang };
    for (const [k, v] of Object.entries(fields)) if (v && (config.overwrite || body[k] === undefined)) body[k] = v;
    return of(env);
  }),
});
