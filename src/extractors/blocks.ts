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

/** Sentence punctuation, Latin and CJK alike (`.,;:!?，。、；：？！…`); a switch, not a Set: this runs per character of the page. */
function isPunct(c: number): boolean {
  switch (c) {
    case 0x2e: case 0x2c: case 0x3b: case 0x3a: case 0x21: case 0x3f:
    case 0xff0c: case 0x3002: case 0x3001: case 0xff1b: case 0xff1a: case 0xff1f: case 0xff01: case 0x2026:
      return true;
    default:
      return false;
  }
}
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
    // Below U+002C nothing is CJK or punctuation but `!`; Latin letters skip both tests.
    if (c < 0x21 || (c > 0x3f && c < 0x2026)) continue;
    if (isCjk(c)) cjk++;
    else if (isPunct(c)) {
      let j = i;
      while (j + 1 < text.length && text.charCodeAt(j + 1) === c) j++;
      punct += j - i >= 2 ? 1 : j - i + 1;
      chars += j - i;
      i = j;
    }
  }
  return { chars, cjk, punct };
}
/** Whether a UTF-16 unit is `\s` (what String#trim removes) or U+200B. */
function isSpaceUnit(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x202f
    || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * `s.replace(/[\s\u00a0\u200b\u3000]+/g, ' ').trim()` in one scan: the runs of non-space text joined by one space.
 * Text already in that form (most lines) is returned as is, without a copy.
 */
export function collapseSpace(s: string): string {
  const n = s.length;
  let out = '';
  let i = 0;
  while (i < n) {
    while (i < n && isSpaceUnit(s.charCodeAt(i))) i++;
    if (i === n) break;
    let j = i + 1;
    // A run goes on over single plain spaces between words.
    while (j < n) {
      const c = s.charCodeAt(j);
      if (!isSpaceUnit(c)) j++;
      else if (c === 0x20 && j + 1 < n && !isSpaceUnit(s.charCodeAt(j + 1))) j += 2;
      else break;
    }
    if (i === 0 && j === n) return s;
    out = out.length === 0 ? s.slice(i, j) : `${out} ${s.slice(i, j)}`;
    i = j;
  }
  return out;
}

interface WalkState {
  blocks: Block[];
  /** The inline text since the last block boundary, concatenated as found. */
  buf: string;
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

/** Markup shown as text (escaped HTML inside noscript and the like) is never content. */
function isMarkupText(text: string): boolean {
  return text.charCodeAt(0) === 0x3c && /^<[a-z!/][^>]*>?/i.test(text) && /=["']|\/>/.test(text);
}

function flush(st: WalkState): void {
  if (st.buf.length === 0) return;
  const text = collapseSpace(st.buf);
  st.buf = '';
  const linkChars = st.linkChars;
  st.linkChars = 0;
  if (!text || isMarkupText(text)) return;
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

/** The walk state a block element changes, restored when the walk leaves it. */
interface Saved {
  owner: DomParent;
  classScore: number;
  heading: number;
  inList: number;
  inComments: number;
}

/** Class weight and comment area of an element without class and id. */
const PLAIN_CLASS: [number, boolean] = [0, false];

/**
 * Depth-first walk with an explicit stack: broken pages nest unclosed tags thousands deep, and
 * a recursive walk would overflow the call stack on them. The stack holds nodes and, where a
 * block element ends, `null`: the state that element changed is then restored from `saved`.
 * Whether a node lies inside a link rides on a parallel stack (no frame object per node).
 */
function walk(root: DomNode, st: WalkState): void {
  const stack: Array<DomNode | null> = [root];
  const inLinks: boolean[] = [false];
  const saved: Saved[] = [];
  while (stack.length) {
    const node = stack.pop()!;
    const inLink = inLinks.pop()!;
    if (node === null) {
      flush(st);
      const s = saved.pop()!;
      st.owner = s.owner;
      st.classScore = s.classScore;
      st.heading = s.heading;
      st.inList = s.inList;
      st.inComments = s.inComments;
      continue;
    }
    if (isText(node)) {
      st.buf += node.data;
      if (inLink) st.linkChars += countChars(node.data);
      continue;
    }
    if (!isElement(node) || isDropped(node)) continue;
    const el = node as DomElement;
    const name = el.name;
    if (name === 'form' && isCommentForm(el)) continue;
    if (name === 'img') {
      flush(st);
      st.imageSince = true;
      st.lastAlt = collapseSpace(el.attribs.alt ?? el.attribs.title ?? '');
      continue;
    }
    const link = inLink || (name === 'a' && el.attribs.href !== undefined);
    if (BLOCK_TAGS.has(name)) {
      flush(st);
      saved.push({ owner: st.owner, classScore: st.classScore, heading: st.heading, inList: st.inList, inComments: st.inComments });
      stack.push(null);
      inLinks.push(false);
      const { class: klass, id } = el.attribs;
      let cls = PLAIN_CLASS;
      // Without class and id the weights are 0 and no comment area (classWeight, isCommentArea): no key to build.
      if (klass !== undefined || id !== undefined) {
        const key = `${name} ${klass ?? ''} ${id ?? ''}`;
        const hit = st.classCache.get(key);
        if (hit) cls = hit;
        else st.classCache.set(key, (cls = [classWeight(el), isCommentArea(el)]));
      }
      if (cls[1]) st.inComments++;
      st.owner = el;
      st.classScore += cls[0];
      if (name.length === 2 && name.charCodeAt(0) === 0x68 && name.charCodeAt(1) >= 0x31 && name.charCodeAt(1) <= 0x36) st.heading = name.charCodeAt(1) - 0x30;
      if (name === 'li' || name === 'dd' || name === 'dt') st.inList++;
    }
    const children = el.children;
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push(children[i]!);
      inLinks.push(link);
    }
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
  const st: WalkState = { blocks: [], buf: '', linkChars: 0, owner: root, classScore: 0, heading: 0, inList: 0, inComments: 0, imageSince: false, lastAlt: '', classCache: new Map() };
  for (const c of root.children) walk(c, st);
  flush(st);
  return st.blocks;
}
