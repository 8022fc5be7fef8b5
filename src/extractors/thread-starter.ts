import { findFirst, isElement, normalizeSpace, textContent, type DomElement } from './dom';

/** What the page walk found that can name a thread's first poster (PageElements has them all). */
export interface PosterElements {
  body?: DomElement;
  author?: DomElement;
  dataAuthor?: string;
  profileLink?: string;
  authorEls: DomElement[];
}

/**
 * A Chinese credit's role before the name ("记者汪萬里", "责任编辑：易清", "网络编辑:贺燕"): the
 * label a template writes ahead of whoever it credits, the way English writes "By".
 */
const CJK_ROLE_RE = /^(?:(?:实习|實習|见习|見習)?(?:记者|記者)|(?:责任|責任|网络|網絡)?(?:编辑|編輯)|作者|撰文)\s*[:：]?\s*(?=\p{Script=Han})/u;

/** A closing bracket the name never opened ("范思鼎]"): the rest of the template's "[作者：…]". */
const STRAY_CLOSE_RE = /^([^[【(（]*)[\]】)）]$/;

/** A name as a tag or an element states it, without a "By" label; not a URL. */
export function cleanAuthor(s: string | undefined): string | undefined {
  const t = s?.replace(/^(?:by|written by|posted by|author:?)\s+/i, '').replace(/^[Bb]y(?=\p{Lu})/u, '').trim()
    .replace(CJK_ROLE_RE, '').replace(STRAY_CLOSE_RE, '$1').trim();
  return t && t.length >= 2 && t.length < 80 && !/^https?:/.test(t) ? t : undefined;
}

/**
 * A mailbox (`ops@our-hometown.com`) or a host name (`paperium.net`) where a name should be: a
 * CMS account or the site, kept only when the page names no one else.
 */
export const NOT_A_PERSON_RE = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$|^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|ai|dev|app|info|biz|edu|gov|us|uk|de|fr)$/i;

/** What a poster's box runs on with after the name: the member's rank and count, when the post went up ("Rabbids Members 1", "Shancock Posted: 2 years ago"). */
const POSTER_STATS_RE = /\s+(?:(?:members?|posts?|messages|replies|reputation|points)\s+[\d,]+|posted:)(?:\s.*)?$/i;

/** A line of a poster's profile column: when they joined, how many posts they wrote. */
const PROFILE_FACT_RE = /^(?:registered|joined|join date|member since|posts|messages)\s*:/i;

/**
 * The poster of the first post whose profile column is a definition list: the name as its term,
 * the member's facts as its definitions (`<dl><dt>ana</dt><dd>Registered: 2025-11-01</dd>…`;
 * FluxBB, PunBB, phpBB's profile column).
 */
function posterTerm(body: DomElement): string | undefined {
  const dt = findFirst(body, (e) => e.name === 'dt' && e.parent !== null && isElement(e.parent)
    && e.parent.children.some((d) => isElement(d) && d.name === 'dd' && PROFILE_FACT_RE.test(normalizeSpace(textContent(d)))));
  const name = dt ? normalizeSpace(textContent(dt)) : '';
  return name.length >= 2 && name.length <= 40 ? name : undefined;
}

/** Class words of the elements around a poster's name that are not the name. */
const NOT_POSTER_CLASS_RE = /avatar|image|img|photo|bio|desc|title|date|time|label|caption|social|link-?list|stats|info|signature/i;

/** Whether microdata puts an element in a reply (the item around it is a Comment or an Answer). */
function inReply(el: DomElement): boolean {
  for (let p = el.parent; p && isElement(p); p = p.parent) {
    if (p.attribs.itemscope !== undefined) return /Comment|Answer/.test(p.attribs.itemtype ?? '');
  }
  return false;
}

/**
 * Who started a forum thread: the poster of its first post. The thread's microdata names them
 * (itemprop=author), else the first post's `data-author`, else the first poster name the markup
 * marks by class (username, poster, message-name). A page of a thread shows later repliers
 * near the content too: the byline finder's nearest name is often one of them.
 */
export function threadStarter(els: PosterElements): string | undefined {
  const el = els.author;
  const nameEl = el && el.attribs.itemprop === 'author' && !inReply(el) ? findFirst(el, (e) => e.attribs.itemprop === 'name') ?? el : undefined;
  const fromMicrodata = nameEl ? cleanAuthor(normalizeSpace(textContent(nameEl))) : undefined;
  if (fromMicrodata && fromMicrodata.length <= 40) return fromMicrodata;
  if (els.dataAuthor) return cleanAuthor(els.dataAuthor);
  if (els.profileLink) return cleanAuthor(els.profileLink);
  const term = els.body ? posterTerm(els.body) : undefined;
  if (term) return term;
  const first = els.authorEls.find((e) => !NOT_POSTER_CLASS_RE.test(e.attribs.class ?? ''));
  const name = first ? cleanAuthor(normalizeSpace(textContent(first)).replace(POSTER_STATS_RE, '')) : undefined;
  return name && name.length <= 40 ? name : undefined;
}
