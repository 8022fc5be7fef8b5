import type { Block } from './blocks';
import { isAncestorOf, isElement, type DomElement, type DomParent } from './dom';
import { shape } from './items';

/** A run of sibling elements with one structure (tag and class, digits ignored): the posts. */
export interface PostList {
  parent: DomParent;
  posts: Set<DomParent>;
  value: number;
  /** The posts' shape (tag and role or first class word). */
  shape: string;
}

/**
 * What makes sibling posts alike: a microdata or component role when the engine sets one
 * (owner posts often carry an extra first class), else the first class word, digits ignored.
 */
export function postShape(el: DomElement): string {
  const a = el.attribs;
  const role = a.itemprop ?? a.component ?? a['data-role'] ?? a['data-type'];
  return role === undefined ? shape(el) : `${el.name}.${role}`;
}

/**
 * Every shape a post may be grouped by: its microdata role and its first class word both, when
 * it has such a role. A thread's microdata gives the replies itemprop=comment, and the opening
 * post (the DiscussionForumPosting itself) none (Discourse's crawler view: every post
 * div.topic-body, the replies itemprop=comment too): by role alone the thread splits in two and
 * its wrapper passes for the list.
 */
function postShapes(el: DomElement): string[] {
  const byRole = postShape(el);
  if (el.attribs.itemprop === undefined) return [byRole];
  const byClass = shape(el);
  return byClass === byRole || byClass === `${el.name}.` ? [byRole] : [byRole, byClass];
}

/**
 * Finds the post list of a forum thread: among all (parent, child shape) groups holding two or
 * more children, the one whose children carry the most positive line value. Posts of a thread
 * are siblings of one shape; page furniture rarely repeats with that much text in it.
 */
export function findPostList(blocks: Block[], values: number[], minPosts = 2, minLinesPerPost = 2): PostList | undefined {
  const groups = new Map<DomParent, Map<string, { posts: Set<DomParent>; value: number; lines: number }>>();
  for (const b of blocks) {
    const v = Math.max(0, values[b.index]!);
    for (let el: DomParent | null = b.owner; el && el.parent; el = el.parent) {
      if (!isElement(el)) break;
      const parent = el.parent;
      let byShape = groups.get(parent);
      if (!byShape) groups.set(parent, (byShape = new Map()));
      for (const key of postShapes(el as DomElement)) {
        let g = byShape.get(key);
        if (!g) byShape.set(key, (g = { posts: new Set(), value: 0, lines: 0 }));
        g.posts.add(el);
        g.value += v;
        g.lines++;
      }
    }
  }
  const lists: PostList[] = [];
  for (const [parent, byShape] of groups) {
    for (const [key, g] of byShape) {
      // A post has an author line, a date, the text: single lines are paragraphs, not posts.
      if (g.posts.size < minPosts || g.lines < minLinesPerPost * g.posts.size) continue;
      lists.push({ parent, posts: g.posts, value: g.value, shape: key });
    }
  }
  const top = Math.max(0, ...lists.map((l) => l.value));
  // Wrappers that happen to repeat (two columns, a thread and its footer) hold as much text as the
  // posts inside them: of the lists holding nearly all of it, the posts are the finest.
  let best: PostList | undefined;
  for (const l of lists) {
    if (l.value < NEAR_TOP_SHARE * top) continue;
    if (!best || l.posts.size > best.posts.size || (l.posts.size === best.posts.size && l.value > best.value)) best = l;
  }
  return best && withReplyWrappers(innerList(best, lists), lists);
}

/**
 * Children told apart by no class or role may be the page's own wrappers side by side (the header
 * band, the thread, the footer: three "posts"): a list inside one of them that holds nearly all
 * their text is the thread. Posts an engine marks with a class are posts.
 */
function innerList(best: PostList, lists: PostList[]): PostList {
  if (!best.shape.endsWith('.')) return best;
  let inner: PostList | undefined;
  for (const l of lists) {
    if (l === best || l.value < NEAR_TOP_SHARE * best.value || ![...best.posts].some((p) => isAncestorOf(p, l.parent))) continue;
    if (!inner || l.posts.size > inner.posts.size || (l.posts.size === inner.posts.size && l.value > inner.value)) inner = l;
  }
  return inner ?? best;
}

/**
 * A threaded engine that puts each post's replies in a wrapper right after it (post, its
 * replies, next post, its replies…) makes two lists of one parent that alternate: together they
 * are the thread. The posts' shape is that of the list whose item comes first (a post before its
 * replies), so the replies nested in the wrappers count as posts of their own.
 */
function withReplyWrappers(best: PostList, lists: PostList[]): PostList {
  const siblings = [...best.parent.children].filter(isElement);
  for (const other of lists) {
    if (other === best || other.parent !== best.parent || other.posts.size < MIN_ALTERNATIONS) continue;
    let alternations = 0;
    for (let i = 1; i < siblings.length; i++) {
      const [a, b] = [siblings[i - 1]!, siblings[i]!];
      if ((best.posts.has(a) && other.posts.has(b)) || (other.posts.has(a) && best.posts.has(b))) alternations++;
    }
    if (alternations < MIN_ALTERNATIONS) continue;
    const firstOf = (l: PostList): number => siblings.findIndex((el) => l.posts.has(el));
    const lead = firstOf(other) < firstOf(best) ? other : best;
    return { parent: best.parent, posts: new Set([...best.posts, ...other.posts]), value: best.value + other.value, shape: lead.shape };
  }
  return best;
}

/** Post/wrapper pairs side by side that make two lists one thread. */
const MIN_ALTERNATIONS = 3;

/** A list of more, smaller posts wins over one holding more text when it holds this share of it. */
const NEAR_TOP_SHARE = 0.9;

/**
 * The post of a line, if it lies in one: a post of the list, or a reply of the posts' shape
 * nested in a sibling of theirs (a threaded engine puts each post's replies in a children
 * wrapper beside it, not inside it).
 */
export function postOf(b: Block, list: PostList): DomParent | undefined {
  let nested: DomParent | undefined;
  // A bare tag (posts told apart by no class or role) would match any element of the page.
  const named = !list.shape.endsWith('.');
  for (let el: DomParent | null = b.owner; el; el = el.parent) {
    if (el.parent === list.parent) return list.posts.has(el) ? el : nested;
    if (named && nested === undefined && isElement(el) && postShape(el as DomElement) === list.shape) nested = el;
  }
  return undefined;
}

/** Words a linked first line needs to be a headline rather than a poster's name. */
const MIN_HEADLINE_WORDS = 4;
/** Items of a list that must open with a linked headline for it to be teasers. */
const MIN_TEASERS = 3;

/**
 * Whether a "post list" is a list of teasers: most of its items open with a linked headline of
 * several words (a news site's topic page: title, date, standfirst per story), where a thread's
 * posts open with a poster's name. A thread path in a URL (/topic/) says nothing more.
 */
export function isTeaserList(blocks: Block[], list: PostList): boolean {
  const opening = new Map<DomParent, Block>();
  for (const b of blocks) {
    const post = postOf(b, list);
    if (post !== undefined && !opening.has(post)) opening.set(post, b);
  }
  let headlines = 0;
  for (const b of opening.values()) {
    if (b.linkChars > 0.5 * b.chars && b.text.split(/\s+/).length >= MIN_HEADLINE_WORDS) headlines++;
  }
  return headlines >= MIN_TEASERS && 2 * headlines > opening.size;
}
