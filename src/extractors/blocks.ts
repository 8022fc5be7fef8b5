import { classWeight, isCommentArea, isCommentsField, isDropped, isOwnReviewBox, isHiddenByClass, isReviewArea, BLOCK_TAGS } from './clean';
import { isBoilerplateLine } from './boilerplate-lines';
import { isBreadcrumb } from './breadcrumbs';
import { inCodeBlock } from './code-lines';
import { isChoiceLabel } from './choice-labels';
import { isInlinePopup } from './inline-popups';
import { isSiteHeader } from './site-header';
import { isFigureCaption, SHORT_CAPTION_CHARS } from './alt-captions';
import { isElement, isText, normalizeSpace, type DomElement, type DomNode, type DomParent } from './dom';

/** One line of visible text: the inline text between two block boundaries. */
export interface Block {
  index: number;
  text: string;
  /** Non-space characters, all and inside links. */
  chars: number;
  linkChars: number;
  /** Links the line holds (elements, not characters). */
  links: number;
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
  /** Running text (second-opinion.ts); computed on first use by isProse(). */
  prose?: boolean;
  /** Inside a list item, a table cell or a blockquote. */
  inList: boolean;
  /** An image stands between the previous line and this one (a caption candidate). */
  afterImage: boolean;
  /**
   * The line repeats the alt text of the image just before it: a short line anywhere, a long
   * one only as the one text of the image's figure (see isFigureCaption).
   */
  repeatsAlt: boolean;
  /** The innermost element above the line that a class word calls furniture or hidden (layout.ts judges them). */
  furniture: FurnitureMark | null;
}

/**
 * An element a class/id word calls furniture (`sidebar`, `share`…, weight -1) or hides
 * (`hidden`, `sr-only`…): a mark the walk leaves on the lines under it, linked to the next such
 * element further up. layout.ts decides afterwards, from what the element holds, whether the
 * word is right.
 */
export interface FurnitureMark {
  el: DomElement;
  hidden: boolean;
  /** The class weight the walk added into classScore for it (-1, or 0 for a hidden element without a furniture word). */
  weight: number;
  up: FurnitureMark | null;
  /** Filled by layout.ts: positive line value under the element. */
  mass: number;
}

/** Kinds of UTF-16 unit for cutting lines (0: any other), looked up in a table: one load per character. */
/** `\s` (what String#trim removes) or U+200B. */
const SPACE = 1;
/** Han/kana. */
const CJK = 2;
/** Sentence punctuation, Latin and CJK alike (`.,;:!?，。、；：？！…`). */
const PUNCT = 3;

function unitKinds(): Uint8Array {
  const kinds = new Uint8Array(0x10000);
  for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]) kinds[c] = SPACE;
  kinds.fill(SPACE, 0x2000, 0x200c);
  for (const [from, to] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xf900, 0xfaff], [0x3040, 0x30ff]] as const) kinds.fill(CJK, from, to + 1);
  for (const ch of '.,;:!?，。、；：？！…') kinds[ch.charCodeAt(0)] = PUNCT;
  return kinds;
}
/** A constant of the module (64 KiB, built at load), not state. */
const UNIT_KINDS = unitKinds();

/** Counts of one line of text (see Block). */
export interface LineCounts {
  /** Non-space characters. */
  chars: number;
  cjk: number;
  /** Sentence punctuation; a run of 3+ equal marks (dot leaders, "!!!!") counts once. */
  punct: number;
}

/**
 * `s.replace(/[\s\u00a0\u200b\u3000]+/g, ' ').trim()` (the runs of non-space text joined by one
 * space) and, in the same scan, the counts of that line into `counts`. Text already in that
 * form (most lines) is returned as is, without a copy. One pass instead of two: these per-character
 * loops are most of the cost of cutting a page into lines.
 */
export function scanLine(s: string, counts: LineCounts): string {
  const n = s.length;
  let chars = 0;
  let cjk = 0;
  let punct = 0;
  let out = '';
  let i = 0;
  while (i < n) {
    while (i < n && UNIT_KINDS[s.charCodeAt(i)] === SPACE) i++;
    if (i === n) break;
    let j = i;
    while (j < n) {
      const c = s.charCodeAt(j);
      const kind = UNIT_KINDS[c];
      if (kind === SPACE) {
        // A run goes on over single plain spaces between words.
        if (c === 0x20 && j + 1 < n && UNIT_KINDS[s.charCodeAt(j + 1)] !== SPACE) {
          j++;
          continue;
        }
        break;
      }
      chars++;
      j++;
      if (kind === CJK) cjk++;
      else if (kind === PUNCT) {
        // Equal marks in a row: no space lies between them, so the run is the same in the collapsed line.
        let k = j;
        while (k < n && s.charCodeAt(k) === c) k++;
        const extra = k - j;
        punct += extra >= 2 ? 1 : extra + 1;
        chars += extra;
        j = k;
      }
    }
    if (i === 0 && j === n) {
      out = s;
      break;
    }
    out = out.length === 0 ? s.slice(i, j) : `${out} ${s.slice(i, j)}`;
    i = j;
  }
  counts.chars = chars;
  counts.cjk = cjk;
  counts.punct = punct;
  return out;
}

interface WalkState {
  blocks: Block[];
  /** The inline text since the last block boundary, concatenated as found. */
  buf: string;
  linkChars: number;
  links: number;
  owner: DomParent;
  classScore: number;
  heading: number;
  inList: number;
  inComments: number;
  /** An image was passed since the last line, and its alt text. */
  imageSince: boolean;
  lastAlt: string;
  lastImage: DomElement | undefined;
  /** class → id → [class weight, comment area, marked as a review only]: pages repeat a few class strings thousands of times. */
  classCache: Map<string, Map<string, [number, boolean, boolean]>>;
  /** Counts of the line flush() is cutting. */
  counts: LineCounts;
  furniture: FurnitureMark | null;
  /** Walk class-hidden elements, marked (else they are left out like dropped ones). */
  keepHidden: boolean;
  keepStyled: boolean;
  /** Read a heading's link to a place on the page as its text (isSectionAnchor). */
  sectionAnchors: boolean;
  /** Read customers' reviews as reader comments (isReviewArea). */
  reviewsAsComments: boolean;
}

/** Markup shown as text (escaped HTML inside noscript and the like) is never content. */
function isMarkupText(text: string): boolean {
  return text.charCodeAt(0) === 0x3c && /^<[a-z!/][^>]*>?/i.test(text) && /=["']|\/>/.test(text);
}

function flush(st: WalkState): void {
  if (st.buf.length === 0) return;
  const text = scanLine(st.buf, st.counts);
  st.buf = '';
  const linkChars = st.linkChars;
  st.linkChars = 0;
  const links = st.links;
  st.links = 0;
  if (!text || isMarkupText(text)) return;
  const { chars, cjk, punct } = st.counts;
  const repeatsAlt = st.lastAlt.length >= 4 && (text === st.lastAlt || (text.length >= 4 && st.lastAlt.includes(text)))
    && (text.length <= SHORT_CAPTION_CHARS || (st.lastImage !== undefined && isFigureCaption(st.lastImage, st.owner, chars)));
  st.blocks.push({
    index: st.blocks.length, text, chars, linkChars: Math.min(linkChars, chars), links, cjkChars: cjk, punct,
    owner: st.owner, heading: st.heading, classScore: st.classScore, inList: st.inList > 0, inComments: st.inComments > 0,
    afterImage: st.imageSince, repeatsAlt, furniture: st.furniture,
  });
  st.imageSince = false;
  st.lastAlt = '';
  st.lastImage = undefined;
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
  furniture: FurnitureMark | null;
}

/** Class weight, comment area and review mark of an element without class and id. */
const PLAIN_CLASS: [number, boolean, boolean] = [0, false, false];

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
      st.furniture = s.furniture;
      continue;
    }
    if (isText(node)) {
      st.buf += node.data;
      if (inLink) st.linkChars += countChars(node.data);
      continue;
    }
    if (!isElement(node) || isDropped(node, st.keepStyled)) continue;
    const el = node as DomElement;
    const name = el.name;
    const hidden = isHiddenByClass(el);
    // Inline hidden text (a screen-reader label) is never judged: it would run into the visible line.
    if (hidden && (!st.keepHidden || !BLOCK_TAGS.has(name))) continue;
    if (name === 'form' && isCommentForm(el)) continue;
    if (name === 'label' && isChoiceLabel(el)) continue;
    if (!BLOCK_TAGS.has(name) && isInlinePopup(el)) continue;
    if (name === 'img') {
      flush(st);
      st.imageSince = true;
      st.lastAlt = normalizeSpace(el.attribs.alt ?? el.attribs.title ?? '');
      st.lastImage = el;
      continue;
    }
    const link = inLink || (name === 'a' && el.attribs.href !== undefined && !(st.sectionAnchors && isSectionAnchor(el, st.owner)));
    if (link && !inLink) st.links++;
    if (BLOCK_TAGS.has(name)) {
      flush(st);
      saved.push({ owner: st.owner, classScore: st.classScore, heading: st.heading, inList: st.inList, inComments: st.inComments, furniture: st.furniture });
      stack.push(null);
      inLinks.push(false);
      const { class: klass, id } = el.attribs;
      let cls = PLAIN_CLASS;
      // classWeight and isCommentArea read the tag name only to give body and html 0 and false,
      // as they give an element without class and id: the cache is by class, then id (no key string to build).
      if ((klass !== undefined || id !== undefined) && name !== 'body' && name !== 'html') {
        let byId = st.classCache.get(klass ?? '');
        if (!byId) st.classCache.set(klass ?? '', (byId = new Map()));
        let hit = byId.get(id ?? '');
        if (!hit) {
          const comments = isCommentArea(el);
          const review = !comments && st.reviewsAsComments && isReviewArea(el);
          byId.set(id ?? '', (hit = [classWeight(el), comments || review, review]));
        }
        cls = hit;
      }
      // The site's header is furniture by where it sits and what it holds, whatever its class says (site-header.ts).
      if ((name === 'header' || el.attribs.role === 'banner') && isSiteHeader(el)) cls = [-1, cls[1], cls[2]];
      // A review box is judged by what it holds too: an editor's review (or its header) is the page's text.
      if (cls[1] && !isCommentsField(el) && !(cls[2] && isOwnReviewBox(el))) st.inComments++;
      if (cls[0] < 0 || hidden) st.furniture = { el, hidden, weight: Math.min(0, cls[0]), up: st.furniture, mass: 0 };
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
 * A heading's link to a place on the same page (`<h2 id="description"><a href="#description">`,
 * Sphinx's `<a class="toc-backref" href="#id3">`): documentation templates make every section
 * heading an anchor, and what it says is the section's title, not a link elsewhere. Only a link
 * the heading element itself holds (an unclosed <h1> high up must not clear a whole menu's links)
 * to a named fragment (a bare `#` is a script's button: a card's title, a menu toggle).
 */
function isSectionAnchor(a: DomElement, owner: DomParent): boolean {
  const href = a.attribs.href!;
  if (href.length < 2 || href.charCodeAt(0) !== 0x23 || !isElement(owner)) return false;
  const name = (owner as DomElement).name;
  return name.length === 2 && name.charCodeAt(0) === 0x68 && name.charCodeAt(1) >= 0x31 && name.charCodeAt(1) <= 0x36;
}

/**
 * A reader's comment form (name box, text area, posting rules) or a poll (radio buttons,
 * check boxes): a form with such inputs and little text of its own. Pages that wrap their whole body in one form (ASP.NET) hold far more text.
 */
function isCommentForm(form: DomElement): boolean {
  let input = false;
  let fields = 0;
  let chars = 0;
  const stack: DomNode[] = [...form.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) chars += countChars(n.data);
    else if (isElement(n)) {
      if (n.name === 'textarea' || (n.name === 'input' && /^(?:radio|checkbox)$/i.test(n.attribs.type ?? ''))) input = true;
      else if (n.name === 'input' && TEXT_FIELD_RE.test(n.attribs.type ?? 'text')) fields++;
      // A drop-down's choices (every country, every industry) are no text the form shows.
      if (n.name !== 'select') for (const c of n.children) stack.push(c);
    }
    if (chars > 1500) return false;
  }
  // A contact or lead form asks for several things in words (name, e-mail, phone): its text is
  // the fields' labels. A search box is one field.
  return input || fields >= 2;
}

/** Inputs a visitor types words into (a missing type is text). */
const TEXT_FIELD_RE = /^(?:text|email|tel|url|)$/i;

/** Whether a line is furniture by its wording; only lines inside chosen content are ever asked. */
export function isBoilerplate(b: Block): boolean {
  b.boilerplate ??= (isBoilerplateLine(b.text) && !inCodeBlock(b.owner)) || isBreadcrumb(b);
  return b.boilerplate;
}

/**
 * Visible text of the document as a sequence of lines, in document order. With `keepHidden`,
 * the lines of class-hidden elements are kept, marked (layout.ts decides), else left out. With
 * `keepStyled`, elements an inline style or `aria-hidden` hides are read as well (text-density.ts: the pages that
 * show next to nothing until a script reveals their parts). With `sectionAnchors`, a heading's
 * link to a place on the page is its text, not a link (isSectionAnchor); not on forum threads,
 * where such a heading is a reply's subject linking to the reply ("Re: …" over every post). With
 * `reviewsAsComments`, customers' reviews are marked as comment areas (isReviewArea).
 */
export function toBlocks(root: DomParent, keepHidden = false, keepStyled = false, sectionAnchors = false, reviewsAsComments = false): Block[] {
  const st: WalkState = {
    blocks: [], buf: '', linkChars: 0, links: 0, owner: root, classScore: 0, heading: 0, inList: 0, inComments: 0, imageSince: false, lastAlt: '', lastImage: undefined,
    classCache: new Map(), counts: { chars: 0, cjk: 0, punct: 0 }, furniture: null, keepHidden, keepStyled, sectionAnchors, reviewsAsComments,
  };
  for (const c of root.children) walk(c, st);
  flush(st);
  return st.blocks;
}
