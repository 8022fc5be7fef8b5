import type { Block } from './blocks';
import { isAncestorOf, isElement, textContent, type DomParent } from './dom';

/**
 * The heading of a section of other stories after a piece: "Latest News", "Popular posts", "Related
 * articles", "Trending stories in world travel", behind a call to read on ("Tap into the latest insights from experts").
 */
const OTHER_STORIES_RE = /^(?:(?:read\s+|(?:tap into|dive into|catch up on|discover|browse)(?:\s+(?:the|our))?\s+)?(?:related|latest|popular|trending|recommended|recent|more|top|other|similar|featured)(?:\s+\S+){0,2}\s+(?:posts?|articles?|stories|news|reads|blogs?|guides|insights|resources)\b.{0,40}|more (?:on|from|about|to explore)\b.{0,40}|explore more\b.{0,40}|you (?:may|might) also (?:like|enjoy)|read next|most (?:read|popular|viewed)|(?:subscribe|sign up)\b.{0,40}|.{0,30}\bnewsletters?)\W*$/i;
/**
 * The heading of a section of the site's other offers and teasers after a service page's own text,
 * on a page of repeated items too (a grid of the service's features): "Related services", "Other
 * solutions", "Featured insights", "Featured client stories", "What's trending with cybersecurity". Only
 * what is called related, other or featured: "Top 5 streaming services" heads a section of a round-up.
 */
const OTHER_OFFERS_RE = /^(?:(?:related|similar|other)(?:\s+\S+)?\s+(?:services|solutions|offerings|case studies|articles|posts|stories|insights|resources)\b.{0,40}|featured(?:\s+\S+)?\s+(?:insights|resources|articles|posts|stories|case studies)\b.{0,40}|what['’]s trending\b.{0,40})\W*$/i;
/**
 * The heading of a carousel of other products beside a product: "Customers who bought this item
 * also bought", "Similar items", "Frequently bought together", "Seller's other items" (some
 * templates print a heading twice, for two breakpoints, in one line).
 */
const OTHER_PRODUCTS_RE = /^(?:(?:(?:people|customers|shoppers)(?: who \S+(?: \S+){0,3})? also (?:viewed|bought|purchased|liked)|frequently bought together|(?:similar|related|recommended|sponsored) (?:items|products)\b.{0,40}|recently viewed(?: items| products)?|(?:the )?seller's other items|(?:more|other) (?:items|products) (?:from|by|to consider|you may like)\b.{0,40}|explore related items|compare with similar (?:items|products))\W*)+$/i;
/** The heading of a shop's shipping and returns terms, the same under every product. */
const POLICY_RE = /^(?:free )?shipping\s*(?:and|&)\s*returns?(?: polic(?:y|ies))?\W*$/i;
/** A price: what marks the cards under such a heading as products for sale, not a vendor's own offer list. */
const PRICE_RE = /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|AUD|CAD|AED)\b)\s?\d|\d(?:[.,]\d{2})?\s?(?:[€£]|\b(?:USD|EUR|GBP|kr|zł|лв)\b)/u;
/** How much text must come before such a heading for it to end the piece (not a listing's own title). */
const MIN_PIECE_CHARS = 600;

/**
 * The content without the sections of other stories that follow the piece or sit inside it: a
 * heading such as "Latest News" or "Related articles" after the piece's first lines, with what
 * shares its box (the heading's highest ancestor that holds none of the content before it:
 * a related-links box inside the article, a teaser list after it). On listings (items), whose
 * own sections "Latest news" and "Popular posts" are, only the site's other offers (OTHER_OFFERS_RE).
 */
export function cutOtherStories(blocks: Block[], chosen: Block[], listing: boolean): Block[] {
  if (chosen.length < 2) return chosen;
  const out: Block[] = [];
  let chars = 0;
  // The boxes of the headings found since the last line kept, and how far the lines were looked through.
  let boxes: DomParent[] = [];
  let scanned = -1;
  for (const b of chosen) {
    const prev = out[out.length - 1];
    if (prev && chars >= MIN_PIECE_CHARS) {
      for (let i = Math.max(scanned, prev.index) + 1; i <= b.index; i++) {
        const h = blocks[i]!;
        if (!headingLike(h)) continue;
        const stories = OTHER_OFFERS_RE.test(h.text) || (!listing && (OTHER_STORIES_RE.test(h.text) || POLICY_RE.test(h.text)));
        if (!stories && (listing || !OTHER_PRODUCTS_RE.test(h.text))) continue;
        const box = boxAfter(prev.owner, h.owner);
        if (box && (stories || PRICE_RE.test(textContent(box)))) boxes.push(box);
      }
      scanned = b.index;
      if (boxes.some((box) => isAncestorOf(box, b.owner))) continue;
    }
    out.push(b);
    chars += b.chars;
    boxes = [];
  }
  return out;
}

/**
 * A heading, or a short unlinked line without a sentence's end that a utility-class template
 * styles as one (`<p class="uppercase font-semibold">Popular posts</p>`): the wording test
 * after it is strict enough that the tag need not say so.
 */
function headingLike(b: Block): boolean {
  if (b.text.length > 60) return false;
  return b.heading > 0 || (b.text.length <= 40 && b.linkChars === 0 && !/[.!?:]\s*$/.test(b.text));
}

/** The highest ancestor of `node` that does not hold `before` (undefined when that is the whole page). */
function boxAfter(before: DomParent, node: DomParent): DomParent | undefined {
  let box: DomParent = node;
  while (box.parent && box.parent.type !== 'root' && !isAncestorOf(box.parent, before)) box = box.parent;
  return isElement(box) && box.name !== 'body' && box.name !== 'html' ? box : undefined;
}
