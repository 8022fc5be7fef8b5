import { classWeight, isCommentArea, isDropped, BLOCK_TAGS } from './clean';
import { isBoilerplateLine } from './boilerplate-lines';
import { isElement, isText, type DomElement, type DomNode, type DomParent } from './dom';

/** One line of visible text: the inline text between two block boundaries. */
export interface Block {
  index: number;
  text: string;
  /** Non-space characters, all and inside links. */
  chars: number;
  linkChars: number;
  /** Han/kana characters (each carries about as much as a short Latin word). */
  cjkChars: number;
  /** Sentence punctuation, Latin and CJK (`，。、；：？！` count like `,.;:?!`). */
  punct: number;
  /** The nearest block-level ancestor that holds the text. */
  owner: DomParent;
  /** h1..h6 level of the owner, 0 when not a heading. */
  heading: number;
  /** Sum of class/id weights of the ancestors (negative = furniture). */
  classScore: number;
  /** Under a reader-comment area. */
  inComments: boolean;
  /** Furniture by its wording (dateline, credit, share prompt…); computed on first use by isBoilerplate(). */
  boilerplate?: boolean;
  /** Inside a list item, a table cell or a blockquote. */
  inList: boolean;
  /** An image stands between the previous line and this one (a caption candidate). */
  afterImage: boolean;
  /** The line repeats the alt text of the image just before it. */
  repeatsAlt: boolean;
}

/** Sentence punctuation, Latin and CJK alike. */
const PUNCT = new Set([...'.,;:!?，。、；：？！…'].map((c) => c.charCodeAt(0)));
const isCjk = (c: number): boolean =>
  (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x3040 && c <= 0x30ff);

/** Non-space, CJK and punctuation counts in one pass; a run of 3+ equal marks (dot leaders, "!!!!") counts once. */
function countLine(text: string): { chars: number; cjk: number; punct: number } {
  let chars = 0;
  let cjk = 0;
  let punct = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) continue;
    chars++;
    if (isCjk(c)) cjk++;
    else if (PUNCT.has(c)) {
      let j = i;
      while (j + 1 < text.length && text.charCodeAt(j + 1) === c) j++;
      punct += j - i >= 2 ? 1 : j - i + 1;
      chars += j - i;
      i = j;
    }
  }
  return { chars, cjk, punct };
}
const SPACE_RE = /[\s\u00a0\u200b\u3000]+/g;

interface WalkState {
  blocks: Block[];
  buf: string[];
  linkChars: number;
  owner: DomParent;
  classScore: number;
  heading: number;
  inList: number;
  inComments: number;
  /** An image was passed since the last line, and its alt text. */
  imageSince: boolean;
  lastAlt: string;
  /** class/id string → [class weight, comment area]: pages repeat a few class strings thousands of times. */
  classCache: Map<string, [number, boolean]>;
}

function flush(st: WalkState): void {
  if (st.buf.length === 0) return;
  const text = st.buf.join('').replace(SPACE_RE, ' ').trim();
  st.buf = [];
  const linkChars = st.linkChars;
  st.linkChars = 0;
  // Markup shown as text (escaped HTML inside noscript and the like) is never content.
  if (!text || /^<[a-z!/][^>]*>?/i.test(text) && /=["']|\/>/.test(text)) return;
  const { chars, cjk, punct } = countLine(text);
  const repeatsAlt = st.lastAlt.length >= 4 && (text === st.lastAlt || (text.length >= 4 && st.lastAlt.includes(text)));
  st.blocks.push({
    index: st.blocks.length, text, chars, linkChars: Math.min(linkChars, chars), cjkChars: cjk, punct,
    owner: st.owner, heading: st.heading, classScore: st.classScore, inList: st.inList > 0, inComments: st.inComments > 0,
    afterImage: st.imageSince, repeatsAlt,
  });
  st.imageSince = false;
  st.lastAlt = '';
}

function countChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 0xa0 && c !== 0x3000 && c !== 0x200b) n++;
  }
  return n;
}

type Saved = Pick<WalkState, 'owner' | 'classScore' | 'heading' | 'inList' | 'inComments'>;

/**
 * Depth-first walk with an explicit stack: broken pages nest unclosed tags thousands deep, and
 * a recursive walk would overflow the call stack on them. An exit frame restores the state a
 * block element changed.
 */
function walk(root: DomNode, st: WalkState): void {
  const stack: Array<{ node: DomNode; inLink: boolean } | { exit: Saved }> = [{ node: root, inLink: false }];
  while (stack.length) {
    const frame = stack.pop()!;
    if ('exit' in frame) {
      flush(st);
      Object.assign(st, frame.exit);
      continue;
    }
    const { node, inLink } = frame;
    if (isText(node)) {
      st.buf.push(node.data);
      if (inLink) st.linkChars += countChars(node.data);
      continue;
    }
    if (!isElement(node) || isDropped(node)) continue;
    const el = node as DomElement;
    if (el.name === 'form' && isCommentForm(el)) continue;
    if (el.name === 'img') {
      flush(st);
      st.imageSince = true;
      st.lastAlt = (el.attribs.alt ?? el.attribs.title ?? '').replace(SPACE_RE, ' ').trim();
      continue;
    }
    const link = inLink || (el.name === 'a' && el.attribs.href !== undefined);
    if (BLOCK_TAGS.has(el.name)) {
      flush(st);
      stack.push({ exit: { owner: st.owner, classScore: st.classScore, heading: st.heading, inList: st.inList, inComments: st.inComments } });
      const key = `${el.name} ${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
      let cls = st.classCache.get(key);
      if (!cls) st.classCache.set(key, (cls = [classWeight(el), isCommentArea(el)]));
      if (cls[1]) st.inComments++;
      st.owner = el;
      st.classScore += cls[0];
      if (/^h[1-6]$/.test(el.name)) st.heading = Number(el.name[1]);
      if (el.name === 'li' || el.name === 'dd' || el.name === 'dt') st.inList++;
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push({ node: el.children[i]!, inLink: link });
  }
}

/**
 * A reader's comment form (name box, text area, posting rules) or a poll (radio buttons,
 * check boxes): a form with such inputs and little text of its own. Pages that wrap their whole body in one form (ASP.NET) hold far more text.
 */
function isCommentForm(form: DomElement): boolean {
  let input = false;
  let chars = 0;
  const stack: DomNode[] = [...form.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) chars += countChars(n.data);
    else if (isElement(n)) {
      if (n.name === 'textarea' || (n.name === 'input' && /^(?:radio|checkbox)$/i.test(n.attribs.type ?? ''))) input = true;
      for (const c of n.children) stack.push(c);
    }
    if (chars > 1500) return false;
  }
  return input;
}

/** Whether a line is furniture by its wording; only lines inside chosen content are ever asked. */
export function isBoilerplate(b: Block): boolean {
  b.boilerplate ??= isBoilerplateLine(b.text);
  return b.boilerplate;
}

/** Visible text of the document as a sequence of lines, in document order. */
export function toBlocks(root: DomParent): Block[] {
  const st: WalkState = { blocks: [], buf: [], linkChars: 0, owner: root, classScore: 0, heading: 0, inList: 0, inComments: 0, imageSince: false, lastAlt: '', classCache: new Map() };
  for (const c of root.children) walk(c, st);
  flush(st);
  return st.blocks;
}
