import type { Block } from './blocks';
import { isAncestorOf, isElement, lowestCommonAncestor, type DomElement, type DomParent } from './dom';
import { isDateline } from './boilerplate-lines';
import { findPostList, postOf, type PostList } from './forum-posts';
import { isPosterName, withoutTrailingCount } from './poster-names';
import { dropRecurringLines, isPostFurniture } from './post-furniture';
import { isProse } from './second-opinion';
import { inPosterBox, keepLine, type SelectionParams } from './selection';

/** What the thread reading takes of the content parameters (content.ts ContentParams). */
export interface ThreadParams {
  /** The page is a forum thread by its URL alone, no forum markup (page-kind.ts). */
  forumByUrlOnly: boolean;
  /** Share of the page's positive line value a post list must hold to be the content. */
  forumMinShare: number;
}

/**
 * The thread's post list, when the page has one that holds most of its positive line value: its
 * posts, and the replies a threaded engine nests in a wrapper beside each post (postOf), which the
 * list's own value leaves out.
 */
export function threadPosts(blocks: Block[], values: number[], params: ThreadParams): PostList | undefined {
  const list = findPostList(blocks, values);
  if (!list) return undefined;
  const total = values.reduce((a, v) => a + Math.max(0, v), 0);
  const enough = params.forumMinShare * total;
  if (list.value >= enough) return list;
  let held = 0;
  for (const b of blocks) if (values[b.index]! > 0 && postOf(b, list) !== undefined) held += values[b.index]!;
  return held < enough ? undefined : list;
}

/**
 * Forum threads: every line of every post of the post list, when that list holds most of the
 * page's positive value (else the segment model decides).
 */
export function forumContent(
  blocks: Block[], values: number[], selection: SelectionParams, weights: Map<DomElement, number>, params: ThreadParams, titleIndex: number | undefined,
): Block[] | undefined {
  const list = threadPosts(blocks, values, params);
  if (!list) return undefined;
  // Each post keeps its header: the poster's name (the first short link line) and its date.
  const named = new Set<DomParent>();
  const dated = new Set<DomParent>();
  const names = new Set<Block>();
  const headers = new Set<Block>();
  const posts = blocks.filter((b) => {
    const post = postOf(b, list);
    if (post === undefined) return false;
    if (!named.has(post) && isPosterName(b)) {
      named.add(post);
      names.add(b);
      headers.add(b);
      return true;
    }
    // The post's own date, not the poster's join date.
    if (!dated.has(post) && isDateline(b.text) && !inPosterBox(b, post) && !isFieldValue(b, post)) {
      dated.add(post);
      headers.add(b);
      return true;
    }
    return keepLine(b, post, false, selection, weights) || linkedItem(b, post, selection, weights) || isQuoteAttribution(b.text);
  });
  // A page that is a thread by its URL alone may be a list of cards whose recurring lines are their facts.
  const kept = params.forumByUrlOnly ? posts : dropRecurringLines(posts, (b) => postOf(b, list), headers);
  const opening = openingPost(blocks, values, list, posts[0]?.index, titleIndex, selection, weights);
  // No forum engine's markup, an opening text of its own and every "post" inside a reader-comment
  // area: a magazine's question page with a blog's comment widget beneath it, read as an article.
  if (params.forumByUrlOnly && opening.length > 0 && kept.every((b) => b.inComments) && opening.every((b) => !b.inComments)) return opening;
  return [...opening, ...kept.map((b) => (names.has(b) ? withoutTrailingCount(b) : b))];
}

/**
 * A line that is the value of a labelled field (a definition list's <dd>: "Joined" / "Jun 29,
 * 2016", "Posts" / "1,204"): the engine's profile facts beside a post, whatever their box's class
 * says. A post's own date heads the post; posters' text holds no definition lists.
 */
function isFieldValue(b: Block, post: DomParent): boolean {
  for (let p: DomParent | null = b.owner; p && p !== post; p = p.parent) if (isElement(p) && (p as DomElement).name === 'dd') return true;
  return false;
}

/** The line a quote opens with, naming whom it quotes ("Pippin06 said:", "ana wrote:"), its name often a link to the quoted post. */
const QUOTE_ATTRIBUTION_RE = /^\S.{0,60}\s(?:said|wrote|posted)\s*(?::|\.{3}|…)$/;

function isQuoteAttribution(text: string): boolean {
  return QUOTE_ATTRIBUTION_RE.test(text.trim());
}

/** Words a linked list item needs to be a writer's item (a title, a source) rather than a row of buttons ("Reply", "Quote"). */
const MIN_LINKED_ITEM_WORDS = 3;

/**
 * An address pasted into a post, shown as its own link text ("https://github.com/raspberrypi/firmware",
 * an engine's shortened "https://github.com/raspberrypi/firmware ... ays/README"): navigation
 * names where it leads, only a poster's link spells the address out.
 */
const PASTED_URL_RE = /^(?:https?:\/\/|www\.)\S+(?:\s*(?:\.{3}|…)\s*\S+)?$/i;

/**
 * A line of a post that is all link: a list item (the sources a reply cites, the tools it
 * recommends, each a linked title) or a pasted address. What the writer wrote, not navigation
 * (furniture and boilerplate aside).
 */
function linkedItem(b: Block, post: DomParent, selection: SelectionParams, weights: Map<DomElement, number>): boolean {
  const item = b.inList && b.text.split(/\s+/).length >= MIN_LINKED_ITEM_WORDS;
  return (item || PASTED_URL_RE.test(b.text.trim())) && b.heading === 0
    && keepLine(b, post, false, { ...selection, maxLinkRatio: 1 }, weights);
}

/** Characters of prose an opening post outside the reply list must hold to be taken. */
const MIN_OPENING_CHARS = 150;

/**
 * The thread's opening post when the engine renders it apart from the replies (Vanilla's
 * discussion above its comment list, a link aggregator's story above its comments): the lines
 * between the headline and the first reply that the line model scores as text, inside the
 * element holding both the headline and the replies.
 */
function openingPost(
  blocks: Block[], values: number[], list: PostList, firstPost: number | undefined, titleIndex: number | undefined,
  selection: SelectionParams, weights: Map<DomElement, number>,
): Block[] {
  if (titleIndex === undefined || firstPost === undefined || firstPost <= titleIndex + 1) return [];
  const top = lowestCommonAncestor([blocks[titleIndex]!.owner, list.parent]);
  if (!top) return [];
  const between = blocks.slice(titleIndex + 1, firstPost);
  // The engine's own notices there (the call to sign in, a closed thread's notice) are no one's post.
  const lines = between.filter((b) => values[b.index]! > 0 && isAncestorOf(top, b.owner) && keepLine(b, top, false, selection, weights) && !isPostFurniture(b.text));
  if (lines.reduce((n, b) => n + b.chars, 0) < MIN_OPENING_CHARS) return [];
  // The post's own body (the element around its text, below the thread's wrapper) is what its
  // writer wrote: its headings and its lists of links (a changelog, a list of sources) too.
  const prose = lines.filter(isProse);
  const body = prose.length >= 2 ? lowestCommonAncestor(prose.map((b) => b.owner)) : undefined;
  if (!body || body === top || !isElement(body) || isAncestorOf(body, list.parent)) return withPostHeader(between, lines, top);
  const linksKept = { ...selection, maxLinkRatio: 1 };
  const kept = new Set(lines);
  return withPostHeader(between, between.filter((b) => kept.has(b) || (isAncestorOf(body, b.owner) && keepLine(b, body, false, linksKept, weights))), top);
}

/**
 * The opening post's header, as every reply keeps its own (forumContent): its poster's name, the
 * nearest name line above its text, and its date, the first dateline after the name outside the
 * poster box (not the join date, not the thread bar's "last post" date above the name); both or none.
 */
function withPostHeader(between: Block[], lines: Block[], top: DomParent): Block[] {
  // Above the post's text, not above what the thread bar shows over it ("1.9K views 11 replies").
  const first = lines.find(isProse);
  if (!first) return lines;
  const before = between.filter((b) => b.index < first.index);
  let nameAt = -1;
  for (let i = before.length - 1; i >= 0 && nameAt < 0; i--) if (isPosterName(before[i]!)) nameAt = i;
  if (nameAt < 0) return lines;
  const date = before.slice(nameAt + 1).find((b) => isDateline(b.text) && !inPosterBox(b, top) && !isFieldValue(b, top));
  // A name with no date below it is some other short link (a board's name, a page number).
  if (!date) return lines;
  const header = [before[nameAt]!, date].filter((b) => !lines.includes(b));
  return [...lines, ...header].sort((a, b) => a.index - b.index);
}
