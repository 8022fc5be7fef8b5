import { decodeHtml } from '../core/charset';
import { toBlocks } from './blocks';
import { findFirst, parseHtml, type DomParent } from './dom';
import { findAuthor, findLang, findPublished, findTitle, jsonLd, metaMap } from './metadata';
import { chooseContent, DEFAULT_CONTENT, type ContentParams } from './content';
import { looksLikeForum } from './page-kind';
import { DEFAULT_SCORING, FORUM_SCORING, nodeValues, type ScoringParams } from './scoring';
import { DEFAULT_SELECTION, type SelectionParams } from './selection';

export interface TextDensityOptions {
  /** Content-Type header of the response, for decoding bytes. */
  contentType?: string;
  /** The page's URL: thread URLs of forum engines switch to the forum model. */
  url?: string;
  scoring?: Partial<ScoringParams>;
  selection?: Partial<SelectionParams>;
  content?: Partial<ContentParams>;
  /** Keep the headline line in `text` when it lies inside the content (default: it is only `title`). */
  keepTitle?: boolean;
}

export interface ExtractedPage {
  title: string;
  /** Main text, one paragraph per line. */
  text: string;
  paragraphs: string[];
  author?: string;
  /** ISO 8601, as precise as the page states it. */
  published_at?: string;
  lang: string;
}

/** A headline without spaces and punctuation, for comparing. */
function headlineKey(s: string): string {
  return s.replace(/[\s\p{P}\p{S}]+/gu, '');
}

/**
 * The `text_density` extractor: lines of visible text scored by length, link share and
 * punctuation, smoothed with a Gaussian, the maximum-sum segment(s) taken as the main content
 * (Zhu et al. 2013) and mapped back to their DOM container (compare CETD).
 */
export function extract(html: string | Uint8Array, opts: TextDensityOptions = {}): ExtractedPage {
  const source = typeof html === 'string' ? html : decodeHtml(html, opts.contentType).text;
  const root = parseHtml(source);
  const forum = looksLikeForum(source, opts.url);
  const scoring = { ...DEFAULT_SCORING, ...(forum ? FORUM_SCORING : {}), ...opts.scoring };
  const selection = { ...DEFAULT_SELECTION, ...opts.selection };
  const body: DomParent = findFirst(root, (el) => el.name === 'body') ?? root;
  const blocks = toBlocks(body);
  const values = nodeValues(blocks, scoring);
  const meta = metaMap(root);
  const title = findTitle(root, meta);
  const titleKey = headlineKey(title);
  // The headline line: a heading with the title's words, else (sites that style a <div> as the
  // headline) any short line with exactly the title's characters.
  const titleIndex = blocks.find((b) => b.heading > 0 && b.text === title)?.index
    ?? (titleKey.length >= 4 ? blocks.find((b) => b.text.length <= 120 && headlineKey(b.text) === titleKey)?.index : undefined);
  const chosen = chooseContent(blocks, values, titleIndex, scoring, selection, { ...DEFAULT_CONTENT, forum, ...opts.content });
  // The headline is the title field; text is the body (as the Scrapinghub/WCXB truths define it).
  const paragraphs = chosen.filter((b) => !(opts.keepTitle !== true && (b.heading > 0 && b.text === title))).map((b) => b.text);
  const text = paragraphs.join('\n');
  const ld = jsonLd(root);
  const author = findAuthor(root, meta, ld);
  // Datelines are left out of the text as boilerplate, so dates are looked for from the headline on.
  const fromTitle = blocks.slice(titleIndex ?? 0, (titleIndex ?? 0) + 12).map((b) => b.text).join('\n');
  const published = findPublished(root, meta, ld, `${fromTitle}\n${text}`);
  return {
    title,
    text,
    paragraphs,
    ...(author ? { author } : {}),
    ...(published ? { published_at: published } : {}),
    lang: findLang(root, text),
  };
}
