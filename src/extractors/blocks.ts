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
  /** Furniture by its wording (dateline, credit, share prompt…), see boilerplate-lines.ts. */
  boilerplate: boolean;
  /** Inside a list item, a table cell or a blockquote. */
  inList: boolean;
}

const CJK_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff]/g;
// A mark ends a clause when it is alone ("...." leaders and "?!?!" runs count once at most).
const PUNCT_RE = /[.,;:!?，。、；：？！…]/g;
/** Dot leaders and "!!!!" runs count as one mark. */
const PUNCT_RUN_RE = /([.,;:!?…])\1{2,}/g;
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
}

function flush(st: WalkState): void {
  if (st.buf.length === 0) return;
  const text = st.buf.join('').replace(SPACE_RE, ' ').trim();
  st.buf = [];
  const linkChars = st.linkChars;
  st.linkChars = 0;
  // Markup shown as text (escaped HTML inside noscript and the like) is never content.
  if (!text || /^<[a-z!/][^>]*>?/i.test(text) && /=["']|\/>/.test(text)) return;
  const chars = text.replace(/ /g, '').length;
  st.blocks.push({
    index: st.blocks.length, text, chars, linkChars: Math.min(linkChars, chars),
    cjkChars: text.match(CJK_RE)?.length ?? 0, punct: text.replace(PUNCT_RUN_RE, '$1').match(PUNCT_RE)?.length ?? 0,
    owner: st.owner, heading: st.heading, classScore: st.classScore, inList: st.inList > 0, inComments: st.inComments > 0,
    boilerplate: isBoilerplateLine(text),
  });
}

function countChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 0xa0 && c !== 0x3000 && c !== 0x200b) n++;
  }
  return n;
}

function walk(node: DomNode, st: WalkState, inLink: boolean): void {
  if (isText(node)) {
    st.buf.push(node.data);
    if (inLink) st.linkChars += countChars(node.data);
    return;
  }
  if (!isElement(node) || isDropped(node)) return;
  const el = node as DomElement;
  const block = BLOCK_TAGS.has(el.name);
  if (!block) {
    const link = inLink || (el.name === 'a' && el.attribs.href !== undefined);
    for (const c of el.children) walk(c, st, link);
    return;
  }
  flush(st);
  const saved = { owner: st.owner, classScore: st.classScore, heading: st.heading, inList: st.inList, inComments: st.inComments };
  if (isCommentArea(el)) st.inComments++;
  st.owner = el;
  st.classScore += classWeight(el);
  if (/^h[1-6]$/.test(el.name)) st.heading = Number(el.name[1]);
  if (el.name === 'li' || el.name === 'dd' || el.name === 'dt') st.inList++;
  for (const c of el.children) walk(c, st, inLink);
  flush(st);
  st.owner = saved.owner;
  st.classScore = saved.classScore;
  st.heading = saved.heading;
  st.inList = saved.inList;
  st.inComments = saved.inComments;
}

/** Visible text of the document as a sequence of lines, in document order. */
export function toBlocks(root: DomParent): Block[] {
  const st: WalkState = { blocks: [], buf: [], linkChars: 0, owner: root, classScore: 0, heading: 0, inList: 0, inComments: 0 };
  for (const c of root.children) walk(c, st, false);
  flush(st);
  return st.blocks;
}
