import type { Block } from './blocks';

/** Filler a template ships before an editor replaces it ("Lorem ipsum dolor sit amet", misspelt "lorem ispum" too). */
const FILLER_RE = /^\W*lorem\s+i(?:psum|spum)\b/i;

/**
 * The content without a template's placeholder text: a hidden tab or an unused slide of a shop
 * theme, a landing page's unused card still holds its "Lorem ipsum" paragraphs and headings. No
 * page means them, unless the page is about the filler itself (its title names it).
 */
export function dropPlaceholders(lines: Block[], title: string): Block[] {
  if (/\blorem\s+ipsum\b/i.test(title)) return lines;
  const kept = lines.filter((b) => !FILLER_RE.test(b.text));
  return kept.length === lines.length ? lines : kept;
}
