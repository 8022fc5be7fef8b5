import { readDate } from './dates';
import { AUTHOR_CLASS_RE, DESK_RE, LABEL_RE, type Byline } from './bylines';
import { bareName, INITIALS_RE, labelledName, nameOf } from './person-names';
import { PORTRAIT_ALT_RE, portraitName } from './portraits';
import { hostKey, siteOwner } from './site-owner';
import { ldAuthor, nameKey, siteNames } from './json-ld';
import { cleanAuthor, NOT_A_PERSON_RE, threadStarter } from './thread-starter';
import { BLOCK_TAGS } from './clean';
import { findFirst, isElement, isText, normalizeSpace, textContent, type DomElement, type DomNode, type DomRoot } from './dom';

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

/** A class naming the piece's own date; a comment's date is no date of the page. */
const DATE_CLASS_RE = /(?:^|[\s_-])(?:entry|post|article|meta|publish(?:ed)?|pub|byline)[-_]?date(?:$|[\s_-])|(?:^|\s)(?:posted-on|pubdate|published)(?:\s|$)/i;
const NOT_DATE_CLASS_RE = /comment|reply|related|widget/i;
/** How many date-classed elements without a date are read before giving up (a template's empty placeholders). */
const MAX_DATE_TRIES = 5;
const MAX_DATE_CHARS = 80;

/** A link to a person's page: `/author/ana-ruiz`, `/authors/ana-ruiz/`, `/team/ana-ruiz`, `/editor/Ana-Ruiz/123`. */
const AUTHOR_HREF_RE = /\/(?:authors?|writers?|contributors?|team|people|staff|editors?)\/([^/?#]+)/i;

/** The link's text when its address names the same person (the slug's letters are the name's). */
function authorLinkName(a: DomElement): string | undefined {
  const slug = AUTHOR_HREF_RE.exec(a.attribs.href ?? '')?.[1];
  if (!slug) return undefined;
  const text = normalizeSpace(textContent(a));
  if (text.length < 2 || text.length > 60) return undefined;
  const key = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '');
  const k = key(text);
  return k.length >= 3 && key(decodeURIComponent(slug.replace(/%(?![0-9a-f]{2})/gi, ''))) === k ? text : undefined;
}

const COMMENT_CLASS_RE = /comment/i;

/** A class for the element holding the author's name itself (author-name, authorName, creator-name, post-author__name). */
const AUTHOR_NAME_CLASS_RE = /(?:author|creator|writer)[-_]*(?:name|title)\b|author__name|author-?meta--name|article__byline|entry-author/i;

const MAX_PORTRAITS = 40;
/** A forum member's profile page, as the common engines address it (phpBB, FluxBB/PunBB, XenForo, vBulletin, Discourse, Lemmy/Reddit). */
const PROFILE_HREF_RE = /memberlist\.php\?mode=viewprofile|profile\.php\?(?:id|u)=|member\.php\?(?:u|\d)|\/members?\/[^/?#]+[./]\d+|\/(?:u|user|users)\/[^/?#]{2,}\/?$/i;

/** A profile on a social network (a channel link in the footer), not a member of this site. */
const SOCIAL_HREF_RE = /\b(?:youtube|facebook|twitter|x|instagram|tiktok|linkedin|pinterest|github|medium)\.com\//i;

/** A profile link's text when it reads as a poster's name (not "Profile", not an avatar). */
function profileLinkName(a: DomElement): string | undefined {
  const text = normalizeSpace(textContent(a)).replace(/^@/, '');
  return text.length >= 2 && text.length <= 40 && !/^(?:profile|view profile|members?|users?|log ?in|sign ?in|register)$/i.test(text) ? text : undefined;
}

/** Microformats 2 author properties (an h-entry's author, an h-card). */
const MF_AUTHOR_RE = /(?:^|\s)[pu]-author(?:\s|$)/;

export function pageElements(root: DomRoot): PageElements {
  const out: PageElements = { metas: [], h1s: [], ldScripts: [], authorEls: [], authorBlocks: [], times: [], portraits: [] };
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
    if (out.author === undefined && (a.rel === 'author' || a.itemprop === 'author')) out.author = n;
    if (out.profileLink === undefined && n.name === 'a' && a.href !== undefined && PROFILE_HREF_RE.test(a.href) && !SOCIAL_HREF_RE.test(a.href)) out.profileLink = profileLinkName(n);
    if (out.mfAuthor === undefined && a.class !== undefined && MF_AUTHOR_RE.test(a.class)) out.mfAuthor = n;
    if (out.dataAuthor === undefined && (a['data-author'] || a['data-username'])) out.dataAuthor = a['data-author'] || a['data-username'];
    if (out.authorLink === undefined && n.name === 'a' && a.href !== undefined) out.authorLink = authorLinkName(n);
    if (out.labelledAuthor === undefined && n.children.length === 1) out.labelledAuthor = besideLabel(n);
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
  return out;
}

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
  if (!isText(t) || t.data.length > 40 || !LABEL_RE.test(t.data.trim()) || /^by$/i.test(t.data.trim())) return undefined;
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

/** `<meta>` content by name/property/itemprop (lower-cased keys), first occurrence wins. */
export function metaMap(page: Page): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of elementsOf(page).metas) {
    const key = (m.attribs.property ?? m.attribs.name ?? m.attribs.itemprop ?? '').toLowerCase();
    const content = m.attribs.content;
    if (key && content && !out.has(key)) out.set(key, normalizeSpace(content));
  }
  return out;
}

/** JSON-LD objects of the page, flattened through @graph and arrays. */
export function jsonLd(page: Page): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      out.push(v as Record<string, unknown>);
      const graph = (v as Record<string, unknown>)['@graph'];
      if (graph) visit(graph);
    }
  };
  for (const s of elementsOf(page).ldScripts) {
    const text = textContent(s);
    try {
      visit(JSON.parse(text));
    } catch {
      // Raw line breaks and tabs inside its strings (a post's body pasted in) are the commonest
      // fault, and JSON.parse rejects the whole block for one: read it with them as spaces.
      // Otherwise malformed JSON-LD is common and carries nothing we need.
      try {
        // eslint-disable-next-line no-control-regex -- the control characters are what is replaced
        visit(JSON.parse(text.replace(/[\u0000-\u001f]+/g, ' ')));
      } catch {
        // still malformed
      }
    }
  }
  return out;
}

const TITLE_SEPARATORS_RE = /\s+[-|–—_·»:]\s+|_|\|/;

/** Headline: og:title or an <h1> agreeing with <title>, else the longest part of <title>. */
/**
 * Whether a heading is only the site's segment of the document title: the title is the page's
 * own title (og:title) and the heading's text joined by a separator ("The study's headline :
 * science"). A discussion site's community name sits in an <h1> above its side column.
 */
function siteSegment(h1: string, docTitle: string, og: string | undefined): boolean {
  if (og === undefined || og.includes(h1) || og.length <= h1.length) return false;
  const parts = docTitle.split(TITLE_SEPARATORS_RE).map((s) => s.trim());
  return parts.includes(h1) && docTitle.includes(og);
}

export function findTitle(page: Page, meta: Map<string, string>): string {
  const els = elementsOf(page);
  const titleEl = els.title;
  const docTitle = titleEl ? normalizeSpace(textContent(titleEl)) : '';
  const og = meta.get('og:title') ?? meta.get('twitter:title');
  const h1s = els.h1s.map((h) => normalizeSpace(textContent(h))).filter((t) => t.length > 1);
  const h1 = h1s.find((t) => (docTitle.includes(t) && !siteSegment(t, docTitle, og)) || (og !== undefined && og.includes(t)));
  if (h1) return h1;
  if (og) return og;
  if (!docTitle) return h1s[0] ?? '';
  const parts = docTitle.split(TITLE_SEPARATORS_RE).map((s) => s.trim()).filter(Boolean);
  const longest = parts.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= 8 ? longest : docTitle;
}

const AUTHOR_META_KEYS = ['author', 'article:author', 'dc.creator', 'byl', 'parsely-author', 'sailthru.author', 'cxenseparse:author',
  // Less common names, after the ones above: Open Graph variants, CMSs' own. Not Drupal's
  // dcterms.creator: the account that saved the node ("veena"), a name the page never shows.
  'og:author', 'article_author', 'article-author', 'author.name'];

/**
 * The author: a person JSON-LD or a microformats h-entry names, else the byline the page shows,
 * else meta tags, a rel/itemprop=author element, an author card, a poster's data-author, or an
 * organisation JSON-LD names as author.
 */
export function findAuthor(
  page: Page, meta: Map<string, string>, ld: Array<Record<string, unknown>>, byline?: Byline, forum = false, url?: string,
  shown?: (name: string) => boolean,
): string | undefined {
  const el = elementsOf(page).author;
  if (forum) {
    const starter = ldAuthor(ld, 'person') ?? mfName(elementsOf(page).mfAuthor) ?? threadStarter(elementsOf(page));
    if (starter) return starter;
  }
  const twitter = /written by|author/i.test(meta.get('twitter:label1') ?? '') ? meta.get('twitter:data1') : undefined;
  // A "person" named like the site is the publisher: the byline says who wrote the piece.
  const person = ldAuthor(ld, 'person');
  const site = siteNames(meta, ld);
  // The first tag holding a name: article:author is often the author's Facebook page instead.
  const metaName = [...AUTHOR_META_KEYS.map((k) => meta.get(k)), twitter].map(cleanAuthor).find((n) => n !== undefined);
  const mf = mfName(elementsOf(page).mfAuthor);
  // A name that is the site's own ("Cleveland Clinic", "Buzzsprout" on buzzsprout.com) is the
  // publisher standing in where the template has no writer: any person the page names comes first.
  const host = hostKey(url);
  const ofSite = (n: string): boolean => {
    const k = nameKey(n);
    return site.has(k) || NOT_A_PERSON_RE.test(n) || (host.length >= 4 && k.length >= 4 && (k.startsWith(host) || host.startsWith(k)));
  };
  // Ahead of the site-name check below: what the page credits over a login it never shows.
  const posted = postedBy(byline, person ?? metaName, shown);
  if (posted !== undefined && nameShaped(posted)) return posted;
  const candidates = [
    person && !site.has(nameKey(person)) ? besideByline(person, cleanAuthor(byline?.author)) : undefined,
    mf,
    personOverDesk(cleanAuthor(byline?.author), metaName ?? cleanAuthor(byline?.signed)),
    corroborated(cleanAuthor(byline?.author), metaName ?? elementsOf(page).authorLink),
    person,
    metaName,
    // A name line beside the headline's dateline is where the page puts its byline: it comes before
    // an author element or link further down (a related post's card names its own author).
    cleanAuthor(byline?.bare),
    cleanAuthor(el ? normalizeSpace(textContent(el)) : undefined),
    elementsOf(page).authorLink,
    cleanAuthor(byline?.signed),
    elementsOf(page).labelledAuthor,
    ...authorBox(elementsOf(page).authorBlocks),
    portraitName(elementsOf(page).portraits),
    cleanAuthor(byline?.bare),
    // A poster's data-author outside a forum's markup (a link aggregator's submission).
    cleanAuthor(elementsOf(page).dataAuthor),
  ];
  const named = candidates.filter((c): c is string => c !== undefined && nameShaped(c));
  return named.find((c) => !ofSite(c))
    ?? named[0]
    ?? siteOwner(meta, docTitle(page), url)
    ?? ldAuthor(ld, 'organization');
}


/** A Chinese sentence or list (its punctuation, quotation marks), a number, or a reporter's role alone ("实习记者", "责任编辑："). */
const NOT_NAME_SHAPE_RE = /[。，、？！“”]|^[\d\s]+$|^(?:实习|見習|见习)?(?:记者|記者|编辑|編輯|责任编辑|責任編輯|网络编辑|網絡編輯|作者)\s*[:：]?$/;

/** Whether an author candidate can be a name: where a template's slot holds a sentence, a count or a role, the next source speaks. */
function nameShaped(s: string): boolean {
  // What a name carries in brackets is a note on the person ("Steed(微博)(天文爱好者，主编)").
  return !NOT_NAME_SHAPE_RE.test(s.replace(/[(（][^()（）]*[)）]/g, ''));
}

/**
 * The byline, checked against the metadata or a link to the author's page: where the two name
 * the same person, one running on past the other ("Harsh Vaibhav Global Commons", "A. J. Neal
 * View", "Former" for "Former Member"), the metadata's is the name (a line runs into what follows
 * the name; a meta tag or a link holds the name alone).
 */
function corroborated(byline: string | undefined, metaName: string | undefined): string | undefined {
  if (!byline || !metaName) return byline;
  const b = byline.toLowerCase();
  const m = metaName.toLowerCase();
  const [short, long] = b.length < m.length ? [b, m] : [m, b];
  if (!long.startsWith(`${short} `)) return byline;
  // What runs on is a second name ("Alan Woinski and Kim Woinski"): the longer names both.
  if (/^(?:and|&|,)/.test(long.slice(short.length + 1))) return long === b ? byline : metaName;
  return metaName;
}

/**
 * A JSON-LD person that runs on past the byline's name with a separator ("David Jackson -
 * FullStack Editorial Team", "Ana Ruiz | Staff"): the byline's is the name.
 */
function besideByline(person: string, byline: string | undefined): string {
  if (!byline || !person.toLowerCase().startsWith(`${byline.toLowerCase()} `)) return person;
  return /^[-–—|(]/.test(person.slice(byline.length + 1)) ? byline : person;
}


/**
 * The person a labelled byline names ("By Ana Ruiz") where the metadata's author is a name the page
 * never shows: that is the account that posted the piece in the CMS (an editor's login, "KatieS"),
 * not the writer the page credits. The site's own name in the byline ("Written by Model Remodel")
 * outranks it as well: the page credits the publisher, not the login. A desk ("By Aidoc Staff")
 * does only where the page signs it again (an author box's "Written by Everfit Team").
 */
function postedBy(
  byline: Byline | undefined, metadataName: string | undefined, shown: ((name: string) => boolean) | undefined,
): string | undefined {
  // A byline the page also signs ("Written by Everfit Team" in the author box) credits its name twice: a desk's too.
  const signed = byline?.author !== undefined && byline.author === byline.signed;
  if (!(byline?.authorLabelled === true || signed) || metadataName === undefined || shown === undefined) return undefined;
  const name = cleanAuthor(byline.author);
  if (name === undefined || (DESK_RE.test(name) && !signed) || nameKey(name) === nameKey(metadataName)) return undefined;
  return shown(metadataName) ? undefined : name;
}

/** The meta tag's person, or the one a "Written by" line names, where the byline shown names only a desk. */
function personOverDesk(byline: string | undefined, metaName: string | undefined): string | undefined {
  return byline && metaName && DESK_RE.test(byline) && !DESK_RE.test(metaName) ? metaName : undefined;
}

function docTitle(page: Page): string {
  const t = elementsOf(page).title;
  return t ? normalizeSpace(textContent(t)) : '';
}

/** The name of a microformats author: its h-card's p-name, else its own text. */
function mfName(el: DomElement | undefined): string | undefined {
  if (!el) return undefined;
  const nameEl = findFirst(el, (e) => /(?:^|\s)p-name(?:\s|$)/.test(e.attribs.class ?? '')) ?? el;
  const text = normalizeSpace(textContent(nameEl));
  return text.length <= 60 ? nameOf(text, false, true) : undefined;
}

/** The names author boxes show (blocks whose class names them for the author's name), wherever they stand on the page. */
function authorBox(blocks: DomElement[]): Array<string | undefined> {
  // Every name, in order: the first may be the publisher's card beside the writer's.
  return blocks.map((el) => {
    const text = normalizeSpace(textContent(el));
    const name = text.length <= 60 ? nameOf(text, false, true) : undefined;
    return name ? cleanAuthor(name) : undefined;
  });
}
