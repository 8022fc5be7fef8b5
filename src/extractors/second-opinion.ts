import { isBoilerplate, type Block } from './blocks';
import { isAncestorOf, isElement, type DomParent } from './dom';
import { linkRatio } from './scoring';

/**
 * A second opinion on where the content is, from a different model than the line segments: the
 * paragraph-container score of Readability (Arc90): each paragraph-like line gives its container
 * 1 + its commas + 1 per 100 characters (at most 3), its container's parent half of that and the
 * next one a third; the container with the highest score, discounted by its link density, holds
 * the article. It looks at containers rather than runs of lines, so it is wrong in different
 * places than the segment model: where the segment model finds next to nothing, a container
 * with many paragraphs is the better answer.
 */
export interface SecondOpinionParams {
  /** Characters a line needs to count as a paragraph. */
  minParagraphChars: number;
  /** The second opinion replaces the first when the first holds less than this share of its characters… */
  maxFirstShare: number;
  /** …and it holds at least this many characters. */
  minChars: number;
  /** Where the two share no line, the second stands when it holds this many times the first's prose. */
  disjointProseRatio: number;
}

export const DEFAULT_SECOND_OPINION: SecondOpinionParams = { minParagraphChars: 25, maxFirstShare: 0.25, minChars: 300, disjointProseRatio: 2 };

const COMMA_RE = /[,，、]/g;

/** The container with the best paragraph score and its lines (link lists left out), or undefined. */
export function paragraphContainer(blocks: Block[], params: SecondOpinionParams = DEFAULT_SECOND_OPINION): { container: DomParent; lines: Block[] } | undefined {
  const score = new Map<DomParent, number>();
  // Characters and link characters under each ancestor, in one entry (one lookup per ancestor, not four).
  const totals = new Map<DomParent, { chars: number; links: number }>();
  for (const b of blocks) {
    let depth = 0;
    const linkChars = isProse(b) ? 0 : b.linkChars;
    for (let el: DomParent | null = b.owner.parent; el && depth < 8; el = el.parent, depth++) {
      const t = totals.get(el);
      if (t) {
        t.chars += b.chars;
        t.links += linkChars;
      } else totals.set(el, { chars: b.chars, links: linkChars });
    }
    // Paragraphs only, and none under furniture words (a "recommended" list of teasers), as Readability discounts them.
    // A card's teaser is prose inside a link: a paragraph all the same (listing and collection pages).
    if (b.chars < params.minParagraphChars || (linkRatio(b) > 0.5 && !isProse(b)) || b.heading > 0 || b.classScore < 0) continue;
    const s = 1 + (b.text.match(COMMA_RE)?.length ?? 0) + Math.min(Math.floor(b.chars / 100), 3);
    let level = 0;
    for (let el: DomParent | null = b.owner.parent; el && level < 3; el = el.parent, level++) {
      if (!isElement(el)) break;
      score.set(el, (score.get(el) ?? 0) + s / (level === 0 ? 1 : level === 1 ? 2 : level * 3));
    }
  }
  const finals = new Map<DomParent, number>();
  for (const [el, s] of score) {
    const t = totals.get(el);
    const c = t?.chars ?? 0;
    finals.set(el, s * (1 - (c === 0 ? 0 : (t?.links ?? 0) / c)));
  }
  const best = repeatedAncestor(finals);
  if (!best) return undefined;
  const under = (b: Block): boolean => {
    for (let el: DomParent | null = b.owner; el; el = el.parent) if (el === best) return true;
    return false;
  };
  return { container: best, lines: blocks.filter((b) => under(b) && (linkRatio(b) <= 0.5 || isProse(b))) };
}

/**
 * The best-scoring container, or, as Readability does, the ancestor it shares with at least
 * `MIN_ALTERNATIVES` of the other top candidates scoring within 75 % of it: on a page of repeated
 * cards (a listing, a collection) each card is a container of its own with about the same score,
 * and the content is the list that holds them all, not the one card that scored a little higher.
 */
function repeatedAncestor(finals: ReadonlyMap<DomParent, number>): DomParent | undefined {
  const ranked = [...finals].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
  const top = ranked[0];
  if (!top) return undefined;
  const alternatives = ranked.slice(1, TOP_CANDIDATES).filter(([, s]) => s >= 0.75 * top[1]).map(([el]) => el);
  if (alternatives.length < MIN_ALTERNATIVES) return top[0];
  for (let anc = top[0].parent; anc; anc = anc.parent) {
    if (!isElement(anc) || anc.name === 'body' || anc.name === 'html') break;
    const holds = alternatives.filter((alt) => isAncestorOf(anc, alt)).length;
    if (holds >= MIN_ALTERNATIVES) return anc;
  }
  return top[0];
}

const TOP_CANDIDATES = 5;
const MIN_ALTERNATIVES = 3;

/**
 * Whether the second opinion should stand: the first found less than `maxFirstShare` of what the
 * paragraph container holds, or less than that share of its prose, and that is a real text.
 */
export function preferSecond(first: Block[], second: Block[], params: SecondOpinionParams = DEFAULT_SECOND_OPINION): boolean {
  const count = (ls: Block[]): number => ls.reduce((a, b) => a + b.chars, 0);
  // One long link (a featured comment's or product's teaser card, all of it a link to elsewhere)
  // is another page's text, however many commas it holds.
  if (second.length === 1 && linkRatio(second[0]!) > 0.5) return false;
  const c = count(second);
  if (c < params.minChars) return false;
  if (count(first) < params.maxFirstShare * c) return true;
  // The first holds no prose where the second holds real prose (a table of figures beside the
  // page's own text): the first is not the text of the page.
  const proseOf = (ls: Block[]): number => ls.reduce((a, b) => a + (isRunningText(b) ? b.chars : 0), 0);
  const prose = proseOf(second);
  if (prose < params.minChars) return false;
  if (proseOf(first) < params.maxFirstShare * prose) return true;
  // The two models share not one line, and the paragraph container holds more running text by
  // far: the segment model found another block (a featured box above a blog's article list).
  const inSecond = new Set(second);
  return prose > params.disjointProseRatio * proseOf(first) && !first.some((b) => inSecond.has(b));
}

const SPACES_RE = /\s+/g;
const SENTENCE_END_RE = /[.!?。！？]["'”’)]?\s|[.!?。！？]["'”’)]?$/;

/** Han/kana characters a CJK line needs to count as running text: about ten words' worth. */
const MIN_CJK_PROSE_CHARS = 20;
/**
 * CJK clause marks (commas, stops): running text has two in twenty characters, a headline seldom
 * one. The enumeration comma 、 is left out: a tag cloud is a run of words between them.
 */
const CJK_CLAUSE_RE = /[，；。！？]/g;
const MIN_CJK_CLAUSE_MARKS = 2;

/** A line of running text: ten words or more and a sentence's end. */
export function isProse(b: Block): boolean {
  // Asked many times per page (per ancestor, per candidate list): kept on the block, whose text
  // never changes (a WeakMap lookup per ask was 3 % of a page's work on the page thread).
  if (b.prose === undefined) {
    // Nine runs of spaces are enough: counted without collecting every run of a long line.
    SPACES_RE.lastIndex = 0;
    let runs = 0;
    while (runs < 9 && SPACES_RE.exec(b.text) !== null) runs++;
    b.prose = runs >= 9 && SENTENCE_END_RE.test(b.text);
  }
  return b.prose;
}

/**
 * Running text in any script, as the two opinions weigh it: Chinese and Japanese put no spaces
 * between words, so there it is twenty Han/kana characters and two clause marks; else a CJK
 * article weighs as holding no prose and any list of headlines beside it outweighs it. Only the
 * weighing uses it: isProse's other readers (a post's body, an article's last sentence) keep
 * their Latin reading.
 */
export function isRunningText(b: Block): boolean {
  return isProse(b) || (b.cjkChars >= MIN_CJK_PROSE_CHARS && (b.text.match(CJK_CLAUSE_RE)?.length ?? 0) >= MIN_CJK_CLAUSE_MARKS);
}

/** Below this much text (CJK characters counting five, as a short word does) the two opinions found next to nothing. */
const TINY_TEXT = 200;
/** What the page's own text must hold to stand instead: a real text, three times what was found. */
const MIN_PAGE_TEXT = 300;
/** A winner of at most this many lines is judged by its share of the page's text too… */
const MAX_LONE_LINES = 2;
/** …where the page's text is long… */
const MIN_LONE_PAGE_TEXT = 2000;
/** …and the winner holds less than this share of it: the page's text stands instead. */
const MAX_LONE_SHARE = 0.08;

const textSize = (ls: Block[]): number => ls.reduce((a, b) => a + b.chars + 4 * b.cjkChars, 0);

/**
 * The last resort where both models found next to nothing (a product grid, a directory, a home
 * page of short blurbs, a page of cards with no run of dense lines and no paragraph container):
 * every line of the page that is not furniture (by class and by layout.ts), comment, link list
 * or boilerplate. Readability gets those pages right by falling back to the whole body; an
 * extractor that returns a page's menu label for its text has missed it entirely. The same where
 * the winner is a line or two holding a sliver of a long page's text (a service page's hero
 * blurb, its sections below too short for a run of dense lines). Costs one pass over the lines,
 * and only on those pages.
 */
export function lastResort(blocks: Block[], chosen: Block[], maxLinkRatio: number): Block[] {
  const found = textSize(chosen);
  if (found >= TINY_TEXT && chosen.length > MAX_LONE_LINES) return chosen;
  const lines = blocks.filter((b) => b.classScore >= 0 && !b.furniture && !b.inComments
    && (b.heading > 0 || (linkRatio(b) <= maxLinkRatio && !isBoilerplate(b))));
  const size = textSize(lines);
  // A winner of a line or two (a hero's blurb) holding a sliver of a long page's text: its
  // sections had no run of dense lines the segment model could take, and it stood alone.
  if (found >= TINY_TEXT) return size >= MIN_LONE_PAGE_TEXT && found < MAX_LONE_SHARE * size ? lines : chosen;
  return size >= MIN_PAGE_TEXT && size >= 3 * found ? lines : chosen;
}

/** A page with this much text in its lines (links counted, CJK characters five) is never read as empty. */
const MIN_EMPTY_PAGE_TEXT = 1000;

/**
 * The net under every other: where all the rules together kept no line at all, the page's lines
 * that are not furniture (by class and by layout.ts), comment or boilerplate, links included,
 * when they hold a real amount of text. lastResort leaves link lines out, and the tidying after
 * it drops linked titles, so a page made of linked items whose repeated shape went unseen (a
 * news aggregator's front page without its class names) came out empty: some text of the page
 * beats none. A shell that shows next to nothing stays empty.
 */
export function neverEmpty(blocks: Block[], chosen: Block[]): Block[] {
  if (chosen.length > 0) return chosen;
  const lines = blocks.filter((b) => b.classScore >= 0 && !b.furniture && !b.inComments && !isBoilerplate(b));
  return textSize(lines) >= MIN_EMPTY_PAGE_TEXT ? lines : chosen;
}
