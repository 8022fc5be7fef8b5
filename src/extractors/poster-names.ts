import type { Block } from './blocks';
import { isElement, normalizeSpace, textContent, type DomElement, type DomParent } from './dom';

/** Characters of a poster's name line (a handle, a first and last name). */
const MAX_NAME_CHARS = 30;
/** Share of the name that a profile link must cover. */
const MIN_NAME_LINK_SHARE = 0.9;
/**
 * The counter an engine prints right after the name on the same line: the poster's reputation
 * or post count ("Soapm 22", "ana +1,204"). It is no part of the name, and it is not linked.
 */
const TRAILING_COUNT_RE = /\s+[+-]?\d[\d,.]*k?$/i;

/**
 * The class of the element holding a poster's name alone (`username`, `message-name`,
 * `author-name`): not `author` by itself, which engines give the whole poster box (rank, join
 * date, post count) as well.
 */
const NAME_CLASS_RE = /user-?name|(?:author|poster|member|message|user)-?name|(?:^|\s)(?:author|poster)(?:$|\s)/i;
/** Elements up from the line, and down into it, that may carry that class (the name's own span, its heading). */
const MAX_NAME_DEPTH = 2;
/** Words that stand where a name would: labels, buttons. */
const NOT_A_NAME_RE = /^(?:by|author|posted(?: by)?|guest|reply|quote|report|share|edited)$/i;

const named = (el: DomElement): boolean => NAME_CLASS_RE.test(el.attribs.class ?? '');

/** An inline element named so that holds the whole line (the line's block owner is the poster box around it). */
function namedInline(el: DomParent, text: string, depth: number): boolean {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (named(c) && normalizeSpace(textContent(c)) === text) return true;
    if (depth + 1 < MAX_NAME_DEPTH && namedInline(c, text, depth + 1)) return true;
  }
  return false;
}

function inNameElement(b: Block, name: string): boolean {
  let p: DomParent | null = b.owner;
  for (let depth = 0; p && isElement(p) && depth < MAX_NAME_DEPTH; p = p.parent, depth++) if (named(p)) return true;
  return namedInline(b.owner, name, 0);
}

const nonSpace = (s: string): number => s.replace(/\s+/g, '').length;

/**
 * A poster's name: a short line of a word or two ("JosephF", "Babylon Timer"; not "Jump to
 * Latest"), either the link to the poster's profile (a reputation count beside it aside) or,
 * for a poster without a profile link (a guest, a deleted account, an engine that links only the
 * avatar), the text of an element named for the poster (`username`, `message-name`, `author`).
 */
export function isPosterName(b: Block): boolean {
  if (b.chars < 2 || b.chars > MAX_NAME_CHARS) return false;
  const name = b.text.trim().replace(TRAILING_COUNT_RE, '');
  if (/\s\S+\s/.test(name) || !/\p{L}/u.test(name) || NOT_A_NAME_RE.test(name)) return false;
  const nameChars = nonSpace(name);
  // The count beside a linked name is not linked itself (a linked date is no name and its count).
  if (b.linkChars >= MIN_NAME_LINK_SHARE * nameChars) return name === b.text.trim() || b.linkChars <= nameChars;
  // Unlinked: the element's name says it, and the line is no label or sentence ("Posted by", "Thanks!").
  return b.linkChars === 0 && !/[.!?:,;@]/.test(name) && inNameElement(b, name);
}

/**
 * A poster's name line as the name alone: the count an engine prints after it (see
 * TRAILING_COUNT_RE) is a tally of the poster's activity, not a word of the thread.
 */
export function withoutTrailingCount(b: Block): Block {
  const name = b.text.trim().replace(TRAILING_COUNT_RE, '');
  if (name === b.text.trim()) return b;
  const chars = nonSpace(name);
  return { ...b, text: name, chars, linkChars: Math.min(b.linkChars, chars) };
}
