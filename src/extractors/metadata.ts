import { authorLines, DESK_RE, type Byline } from './bylines';
import { nameOf } from './person-names';
import { portraitName } from './portraits';
import { hostKey, siteOwner } from './site-owner';
import { ldAuthor, nameKey, siteNames } from './json-ld';
import { cleanAuthor, NOT_A_PERSON_RE, threadStarter } from './thread-starter';
import { findFirst, normalizeSpace, textContent, type DomElement } from './dom';
import { elementsOf, type Page } from './page-elements';

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

/** Headline: og:title or an <h1> agreeing with <title>, else the longest part of <title>. */
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

/** The author the meta tags name: the first tag holding a name (article:author is often the author's Facebook page instead). */
export function metaAuthor(meta: Map<string, string>): string | undefined {
  const twitter = /written by|author/i.test(meta.get('twitter:label1') ?? '') ? meta.get('twitter:data1') : undefined;
  return [...AUTHOR_META_KEYS.map((k) => meta.get(k)), twitter].map(cleanAuthor).find((n) => n !== undefined);
}

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
    const tagged = metaAuthor(meta);
    const starter = ldAuthor(ld, 'person') ?? mfName(elementsOf(page).mfAuthor) ?? (tagged !== undefined && (shown?.(tagged) ?? false) ? tagged : undefined) ?? threadStarter(elementsOf(page));
    if (starter) return starter;
  }
  // A "person" named like the site is the publisher: the byline says who wrote the piece.
  const person = ldAuthor(ld, 'person');
  const site = siteNames(meta, ld);
  const metaName = metaAuthor(meta);
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
    cleanAuthor(byline?.elsewhere),
    elementsOf(page).labelledAuthor,
    elementsOf(page).byAuthor,
    ...authorBox(elementsOf(page).authorBlocks),
    portraitName(elementsOf(page).portraits),
    agreedAuthor(elementsOf(page).authorEls),
    cleanAuthor(byline?.bare),
    // A poster's data-author outside a forum's markup (a link aggregator's submission).
    cleanAuthor(elementsOf(page).dataAuthor),
  ];
  const named = candidates.filter((c): c is string => c !== undefined && nameShaped(c));
  // The site's name the byline under the headline gives and a "Written by" line repeats ("Everfit
  // Team" twice) is the credit the page states: no person on a teaser card further down outranks it.
  const credited = byline?.author !== undefined && byline.author === byline.signed ? cleanAuthor(byline.author) : undefined;
  return named.find((c) => !ofSite(c) || c === credited)
    ?? named[0]
    ?? siteOwner(meta, docTitle(page), url)
    ?? ldAuthor(ld, 'organization');
}


/**
 * A Chinese sentence or list (its punctuation, quotation marks), a number, a line holding a date
 * (a template's "Page published at 2012-01-12 16:56:29 by …" in the author slot), or a reporter's
 * role alone ("实习记者", "责任编辑：").
 */
const NOT_NAME_SHAPE_RE = /[。，、？！“”]|^[\d\s]+$|(?:19|20)\d{2}[-/.年]\d{1,2}[-/.月]\d{1,2}|^(?:实习|見習|见习)?(?:记者|記者|编辑|編輯|责任编辑|責任編輯|网络编辑|網絡編輯|作者)\s*[:：]?$/;

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

/**
 * The name most elements named for the author give, far from the headline as they may stand (an
 * author box, the author's other posts listed below): where it is more than one element's and
 * more than half of theirs. A lone name may be a teaser's unless its element labels it ("By …"), and
 * many names are a list of posts by several.
 */
function agreedAuthor(els: DomElement[]): string | undefined {
  const counts = new Map<string, { name: string; n: number }>();
  let total = 0;
  let labelled = false;
  for (const text of authorLines(els).values()) {
    const name = text.length <= 60 ? cleanAuthor(nameOf(text, false, true)) : undefined;
    if (name === undefined) continue;
    total++;
    labelled = /^by\s/i.test(text);
    const entry = counts.get(nameKey(name)) ?? { name, n: 0 };
    entry.n++;
    counts.set(nameKey(name), entry);
  }
  const top = [...counts.values()].reduce<{ name: string; n: number } | undefined>((a, b) => (a === undefined || b.n > a.n ? b : a), undefined);
  // One element alone names the author where it says so itself ("By Tariqul Ayan March 30, 2023").
  if (top !== undefined && total === 1 && labelled) return top.name;
  return top !== undefined && top.n >= 2 && top.n * 2 > total ? top.name : undefined;
}
