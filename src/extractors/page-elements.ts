import { readDate } from './dates';
import { AUTHOR_CLASS_RE, LABEL_RE } from './bylines';
import { bareName, INITIALS_RE, labelledName } from './person-names';
import { PORTRAIT_ALT_RE } from './portraits';
import { BLOCK_TAGS } from './clean';
import { isElement, isText, normalizeSpace, textContent, type DomElement, type DomNode, type DomRoot } from './dom';

/**
 * The elements the metadata readers look at, found in one walk of the page: each reader used to
 * walk the whole page on its own (five walks of a few hundred nodes, as much as the line cutting).
 * Lists are in document order; single elements are the first in document order.
 */
export interface PageElements {
  html?: DomElement;
  body?: DomElement;
  title?: DomElement;
  metas: DomElement[];
  h1s: DomElement[];
  /** `<script type="application/ld+json">`. */
  ldScripts: DomElement[];
  /** The first element with rel="author" or itemprop="author". */
  author?: DomElement;
  /** The first `<time datetime>`. */
  time?: DomElement;
  /** The datetime of the first `<time pubdate>`: HTML5's mark for the publication date of the article around it. */
  pubdate?: string;
  /**
   * The first tooltip that is a full ISO timestamp (`<span class="timeago" title="2024-04-17T10:58:44Z">`):
   * a relative time ("2 days ago") scripts fill in, with the moment it stands for kept the way
   * `<time datetime>` keeps it.
   */
  titleTime?: string;
  /** The datetime values of the first `<time>` elements (at most 10), to read an ambiguous one by the others. */
  times: string[];
  /** Inline elements (span, a…) whose class, id, itemprop or rel names them for the author (at most 20). */
  authorEls: DomElement[];
  /** The first `data-author` or `data-username` attribute (forum engines put the poster's name on each post). */
  dataAuthor?: string;
  /** Block elements (p, div, h3…) whose class names them for the author's name (at most 5): an author box far from the headline. */
  authorBlocks: DomElement[];
  /** The first link to an author's page whose text is the name its address spells (`/author/ana-ruiz/` → "Ana Ruiz"). */
  authorLink?: string;
  /** The text of the first link to a member's profile (`memberlist.php?mode=viewprofile&u=`, `/members/ana.12/`, `/u/ana`). */
  profileLink?: string;
  /** The first microformats author (`class="p-author h-card"`, `u-author`): an h-entry's author. */
  mfAuthor?: DomElement;
  /**
   * The name beside an element that holds only an author label ("Author", "Written by"): an
   * author box in an aside or a footer, which the line cutting leaves out of the text.
   */
  labelledAuthor?: string;
  /** The one name the page's "By" labels give in the element beside them (`<span>By </span><button>Ana Ruiz</button>`); none where they name several (teaser cards). */
  byAuthor?: string;
  /** Images whose alt text is short enough to be a person's name (at most 40): portraits of an author card. */
  portraits: DomElement[];
  /**
   * The text of the first element whose class names it as the piece's date (`entry-date`,
   * `post-date`, `author__meta-date`) and that holds one: a dateline the line cutting leaves out
   * (inside an article's own `<footer>`).
   */
  dateText?: string;
  /** The first text with a copyright sign (a footer's "© 2025 Toby Hede. All rights reserved."). */
  copyright?: string;
}

/**
 * A class naming the piece's own date (`entry-date`, or `entry-time` as the Genesis theme names
 * its `<time>` without a datetime); a comment's date is no date of the page.
 */
const DATE_CLASS_RE = /(?:^|[\s_-])(?:entry|post|article|meta|publish(?:ed)?|pub|byline)[-_]?(?:date|time)(?:$|[\s_-])|(?:^|\s)(?:posted-on|pubdate|published)(?:\s|$)/i;
const NOT_DATE_CLASS_RE = /comment|reply|related|widget/i;
/** How many date-classed elements without a date are read before giving up (a template's empty placeholders). */
const MAX_DATE_TRIES = 5;
const MAX_DATE_CHARS = 80;

/** A link to a person's page: `/author/ana-ruiz`, `/authors/ana-ruiz/`, `/team/ana-ruiz`, `/editor/Ana-Ruiz/123`, `/byline/ana-ruiz`. */
const AUTHOR_HREF_RE = /\/(?:authors?|writers?|contributors?|team|people|staff|editors?|bylines?)\/([^/?#]+)/i;

/** The link's text when its address names the same person (the slug's letters are the name's). */
function authorLinkName(a: DomElement): string | undefined {
  const slug = AUTHOR_HREF_RE.exec(a.attribs.href ?? '')?.[1];
  if (!slug) return undefined;
  const text = normalizeSpace(textContent(a));
  if (text.length < 2 || text.length > 60) return undefined;
  const key = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '');
  const k = key(text);
  if (k.length < 3 || key(decodeURIComponent(slug.replace(/%(?![0-9a-f]{2})/gi, ''))) !== k) return undefined;
  // The first and last names in elements of their own ("<span>Maria</span><span>Mathioudaki</span>")
  // are two words a reader sees apart, though the markup puts no space between them.
  return /\s/.test(text) ? text : spacedText(a);
}

/** An element's text with its text nodes set apart by a space. */
function spacedText(el: DomElement): string {
  const parts: string[] = [];
  const walk = (n: DomNode): void => {
    if (isText(n)) parts.push(n.data);
    else if (isElement(n)) n.children.forEach(walk);
  };
  walk(el);
  return normalizeSpace(parts.join(' '));
}

const COMMENT_CLASS_RE = /comment/i;

/** A class for the element holding the author's name itself (author-name, authorName, creator-name, post-author__name). */
const AUTHOR_NAME_CLASS_RE = /(?:author|creator|writer)[-_]*(?:name|title)\b|author__name|author-?meta--name|article__byline|entry-author/i;

const MAX_PORTRAITS = 40;
/**
 * A forum member's profile page, as the common engines address it: phpBB, FluxBB/PunBB, vBulletin
 * (its session id may come first: `member.php?s=…&u=12`), Simple Machines (`?action=profile;u=12`),
 * XenForo and vBulletin's readable addresses (`/members/ana.12/`, `/members/ana.html`), Invision
 * (`/profile/12-ana/`), Discourse, Lemmy/Reddit (`/u/ana`), tilde homes (`/~ana`). The address is
 * the engine's, not the theme's: it survives a site renaming every class.
 */
const PROFILE_HREF_RE = /memberlist\.php\?mode=viewprofile|profile\.php\?(?:id|u)=|member\.php\?(?:[^#]*[&;])?(?:u=|\d)|[?&;]action=profile;u=\d|\/members?\/[^/?#]+[./]\d+|\/(?:members?|profile|u|user|users)\/[^/?#]{2,}\/?$|\/~[^/?#]{2,}\/?$/i;

/** A profile on a social network (a channel link in the footer), not a member of this site. */
const SOCIAL_HREF_RE = /\b(?:youtube|facebook|twitter|x|instagram|tiktok|linkedin|pinterest|github|medium)\.com\//i;

/** The member's handle a readable profile address spells (`/members/ana-ruiz.12/`, `/profile/12-ana/`, `/~ana`), without the engine's id. */
const PROFILE_SLUG_RE = /\/(?:members?|profile|u|user|users)\/([^/?#]+)\/?$|\/~([^/?#]+)\/?$/i;

const nameLetters = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * A profile link's text when it reads as a poster's name (not "Profile", not an avatar). Where
 * the address spells a handle, the text must spell it too: a menu's `/members/albums.html`
 * ("Pictures & Albums") is a page of the members' area, not a member.
 */
function profileLinkName(a: DomElement, href: string): string | undefined {
  const text = normalizeSpace(textContent(a)).replace(/^@/, '');
  if (text.length < 2 || text.length > 40 || /^(?:(?:view (?:\w+ )?)?profile|members?|users?|log ?in|sign ?in|register)$/i.test(text)) return undefined;
  const m = PROFILE_SLUG_RE.exec(href);
  const slug = m ? nameLetters(decodeURIComponent((m[1] ?? m[2] ?? '').replace(/%(?![0-9a-f]{2})/gi, '')).replace(/\.html?$/i, '').replace(/^\d+-|[.-]\d+$/g, '')) : '';
  return !/\p{L}/u.test(slug) || nameLetters(text) === slug ? text : undefined;
}

/** A date and a time of day to the minute, as machines write them (ISO 8601): no reader's tooltip reads so. */
const ISO_STAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Microformats 2 author properties (an h-entry's author, an h-card). */
const MF_AUTHOR_RE = /(?:^|\s)[pu]-author(?:\s|$)/;

export function pageElements(root: DomRoot): PageElements {
  const out: PageElements = { metas: [], h1s: [], ldScripts: [], authorEls: [], authorBlocks: [], times: [], portraits: [] };
  const byNames = new Set<string>();
  let dateTries = 0;
  // Whether a class string (of an element without itemprop and rel) names the author: pages repeat
  // a few class strings hundreds of times, and the test ran on every one of them.
  const authorClass = new Map<string, boolean>();
  const stack: DomNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]!);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) {
      if (out.copyright === undefined && isText(n) && n.data.includes('©')) out.copyright = n.data;
      continue;
    }
    const a = n.attribs;
    switch (n.name) {
      case 'meta': out.metas.push(n); break;
      case 'h1': out.h1s.push(n); break;
      case 'script': if (a.type === 'application/ld+json') out.ldScripts.push(n); break;
      case 'title': out.title ??= n; break;
      case 'time':
        if (a.datetime !== undefined) {
          out.time ??= n;
          if (a.pubdate !== undefined) out.pubdate ??= a.datetime;
          if (out.times.length < 10) out.times.push(a.datetime);
        }
        break;
      case 'html': out.html ??= n; break;
      case 'body': out.body ??= n; break;
      case 'img': if (out.portraits.length < MAX_PORTRAITS && a.alt !== undefined && a.alt.length <= 80 && PORTRAIT_ALT_RE.test(a.alt)) out.portraits.push(n); break;
      default: break;
    }
    if (out.titleTime === undefined && a.title !== undefined && ISO_STAMP_RE.test(a.title)) out.titleTime = a.title;
    if (out.author === undefined && (a.rel === 'author' || a.itemprop === 'author')) out.author = n;
    if (out.profileLink === undefined && n.name === 'a' && a.href !== undefined && PROFILE_HREF_RE.test(a.href) && !SOCIAL_HREF_RE.test(a.href)) out.profileLink = profileLinkName(n, a.href);
    if (out.mfAuthor === undefined && a.class !== undefined && MF_AUTHOR_RE.test(a.class)) out.mfAuthor = n;
    if (out.dataAuthor === undefined && (a['data-author'] || a['data-username'])) out.dataAuthor = a['data-author'] || a['data-username'];
    if (out.authorLink === undefined && n.name === 'a' && a.href !== undefined) out.authorLink = authorLinkName(n);
    if (out.labelledAuthor === undefined && n.children.length === 1) out.labelledAuthor = besideLabel(n);
    // "By" and a name beside it, in an element of its own or as the element's first text.
    const first = n.children[0];
    const byName = first === undefined ? undefined
      : n.children.length === 1 ? (isText(first) && BY_RE.test(first.data) ? besideBy(n.parent?.children ?? [], n) : undefined)
        : isText(first) && BY_RE.test(first.data) ? besideBy(n.children, first) : undefined;
    if (byName !== undefined && byNames.size <= MAX_BY_NAMES) byNames.add(byName);
    if (out.labelledAuthor === undefined && a.class !== undefined && AUTHOR_BIO_CLASS_RE.test(a.class)) out.labelledAuthor = aboveBio(n);
    if (out.dateText === undefined && dateTries < MAX_DATE_TRIES && a.class !== undefined && DATE_CLASS_RE.test(a.class) && !NOT_DATE_CLASS_RE.test(a.class)) {
      dateTries++;
      const text = normalizeSpace(textContent(n));
      if (text.length <= MAX_DATE_CHARS && readDate(text)) out.dateText = text;
    }
    const block = BLOCK_TAGS.has(n.name);
    // A commenter's name box (`comment-author-name`) names no author of the page.
    if (out.authorEls.length < 20 && (a.class !== undefined || a.itemprop !== undefined || a.rel !== undefined) && !block && namesAuthor(a, authorClass)) out.authorEls.push(n);
    else if (out.authorBlocks.length < 5 && a.class !== undefined && block && AUTHOR_NAME_CLASS_RE.test(a.class) && !COMMENT_CLASS_RE.test(a.class)) out.authorBlocks.push(n);
    const children = n.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  // Teaser cards each name their own post's author: only a page whose every "By" names one person credits that person.
  if (byNames.size === 1) out.byAuthor = [...byNames][0];
  return out;
}

/** A "By" alone as an element's text: a byline's label. */
const BY_RE = /^\s*by\s*$/i;
/** Names of "By" elements kept, enough to know they are more than one. */
const MAX_BY_NAMES = 2;

/** The class of an author card's bio (`dynamic-author-description`, `author-bio`, `author__about`). */
const AUTHOR_BIO_CLASS_RE = /author[-_]*(?:bio|description|desc|about)\b/i;

/** The name on the element just before an author's bio (the card's heading). */
function aboveBio(el: DomElement): string | undefined {
  const sibs = el.parent?.children ?? [];
  const prev = sibs.slice(0, sibs.indexOf(el)).reverse().find(isElement);
  return prev ? bareName(normalizeSpace(textContent(prev))) : undefined;
}

/** An element a reader sees: CSS-in-JS templates put a <style> beside each styled element. */
const rendered = (n: DomNode): n is DomElement => isElement(n) && n.name !== 'style' && n.name !== 'script';

/** The name in the element after one whose only text is an author label. */
function besideLabel(el: DomElement): string | undefined {
  const t = el.children[0]!;
  if (!isText(t) || t.data.length > 40 || !LABEL_RE.test(t.data.trim())) return undefined;
  if (/^by$/i.test(t.data.trim())) return undefined;
  // The label may be wrapped on its own ("<div><span>Author</span></div>"): the box beside the wrapper holds the name.
  let label: DomElement = el;
  let next: DomElement | undefined;
  for (let depth = 0; depth < 3 && next === undefined; depth++) {
    const sibs = label.parent?.children ?? [];
    next = sibs.slice(sibs.indexOf(label) + 1).find(rendered);
    if (next === undefined && label.parent && isElement(label.parent) && label.parent.children.filter(rendered).length === 1) label = label.parent;
    else break;
  }
  if (!next) return undefined;
  const text = normalizeSpace(textContent(next));
  return (text.length >= 2 && text.length <= 200 ? labelledName(text) : undefined) ?? firstLeafName(next);
}

/** Inline elements a byline's name stands in after a "By": a link, a button opening the author's card. */
const NAME_SLOT_TAGS = new Set(['a', 'button', 'span', 'strong', 'b']);

/**
 * The name in the inline element right after a "By" (`<span>By </span><button>Chase Bernath</button>`,
 * `By <a>Ana Ruiz</a>`): a person's name shape only, as "By" alone labels anything.
 */
function besideBy(siblings: DomNode[], label: DomNode): string | undefined {
  const next = siblings.slice(siblings.indexOf(label) + 1).find((n) => !isText(n) || n.data.trim() !== '');
  if (next === undefined || !isElement(next) || !NAME_SLOT_TAGS.has(next.name)) return undefined;
  const text = normalizeSpace(textContent(next));
  return text.length <= 60 ? bareName(text) : undefined;
}

/**
 * The name a card of several lines opens with ("CP" / "Chengcheng Pei" / "Staff Software
 * Engineer"): its first text that is not an avatar's initials, read as a name line.
 */
function firstLeafName(card: DomElement): string | undefined {
  const leaves: string[] = [];
  const walk = (n: DomNode): void => {
    if (leaves.length >= 3) return;
    if (isText(n)) {
      const t = normalizeSpace(n.data);
      if (t && !INITIALS_RE.test(t)) leaves.push(t);
    } else if (isElement(n) && n.name !== 'script' && n.name !== 'style') n.children.forEach(walk);
  };
  walk(card);
  return leaves[0] !== undefined ? bareName(leaves[0]) : undefined;
}

/** AUTHOR_CLASS_RE over an element's class, itemprop and rel; by class alone (cached) when it has neither of the others. */
function namesAuthor(a: Record<string, string>, byClass: Map<string, boolean>): boolean {
  const klass = a.class;
  if (a.itemprop !== undefined || a.rel !== undefined || klass === undefined) return AUTHOR_CLASS_RE.test(`${klass ?? ''} ${a.itemprop ?? ''} ${a.rel ?? ''}`);
  let hit = byClass.get(klass);
  if (hit === undefined) byClass.set(klass, (hit = AUTHOR_CLASS_RE.test(`${klass}  `)));
  return hit;
}

/** The readers take the page or its elements already found (the extractor finds them once for all). */
export type Page = DomRoot | PageElements;
export const elementsOf = (page: Page): PageElements => ('children' in page ? pageElements(page) : page);
