import { normalizeSpace } from './dom';
import { NOT_A_PERSON_RE } from './thread-starter';

/**
 * What a page's JSON-LD says about its author and its site: the readers over the objects that
 * `jsonLd` (metadata.ts) gathered, flattened through `@graph`.
 */

function ldString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return ldString(v[0]);
  if (v && typeof v === 'object') return ldString((v as Record<string, unknown>).name);
  return undefined;
}

/** JSON-LD types that describe the page's own piece (not its site, breadcrumb or images). */
const LD_PIECE_RE = /Article|Posting|Report|WebPage|Review|Recipe|HowTo|Blog|CreativeWork|Product|Event|Course|QAPage|Question/;

function ldTypes(o: Record<string, unknown>): string {
  const t = o['@type'];
  return Array.isArray(t) ? t.join(' ') : typeof t === 'string' ? t : '';
}

/** The first author a JSON-LD piece names, followed through `@id` references; persons before organisations. */
export function ldAuthor(ld: Array<Record<string, unknown>>, kind: 'person' | 'organization'): string | undefined {
  const byId = new Map<string, Record<string, unknown>>();
  for (const o of ld) if (typeof o['@id'] === 'string') byId.set(o['@id'], o);
  for (const o of ld) {
    if (o.author === undefined || (ldTypes(o) !== '' && !LD_PIECE_RE.test(ldTypes(o)))) continue;
    for (let a of Array.isArray(o.author) ? o.author : [o.author]) {
      if (a && typeof a === 'object' && typeof (a as Record<string, unknown>)['@id'] === 'string') a = byId.get((a as Record<string, unknown>)['@id'] as string) ?? a;
      const org = a && typeof a === 'object' && /Organization|Corporation|Brand/.test(ldTypes(a as Record<string, unknown>));
      if (org !== (kind === 'organization')) continue;
      const name = ldString(a)?.replace(/^by\s+/i, '');
      if (name && !/^https?:/.test(name) && !NOT_A_PERSON_RE.test(name)) return normalizeSpace(name);
    }
  }
  return undefined;
}

/** JSON-LD types of a page that is one dated or sold piece: a story, a post, a product. */
const LD_ONE_PIECE_RE = /Article|Posting|Product/;

/**
 * Whether the page says it is one piece, a story, a post or a product (a JSON-LD object's type, or
 * OpenGraph's where the JSON-LD calls it no plain WebPage), rather than a site's page about what it
 * offers: a piece's headline heads its own text.
 */
export function isOnePiece(meta: Map<string, string>, ld: Array<Record<string, unknown>>): boolean {
  if (ld.some((o) => LD_ONE_PIECE_RE.test(ldTypes(o)))) return true;
  const og = meta.get('og:type');
  // SEO plugins print og:type article on every page but the home page; their JSON-LD tells a
  // post (an Article beside its WebPage) from a page (a WebPage alone).
  return (og === 'article' || og === 'product') && !ld.some((o) => /\bWebPage\b/.test(ldTypes(o)));
}

export const nameKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The site's and publisher's names (og:site_name, application-name, JSON-LD publisher / Organization / WebSite), as keys. */
export function siteNames(meta: Map<string, string>, ld: Array<Record<string, unknown>>): Set<string> {
  const names = new Set<string>();
  for (const k of ['og:site_name', 'application-name', 'twitter:site']) {
    const v = meta.get(k);
    if (v) names.add(nameKey(v.replace(/^@/, '')));
  }
  for (const o of ld) {
    const pub = ldString(o.publisher);
    if (pub) names.add(nameKey(pub));
    if (/Organization|WebSite|Corporation/.test(ldTypes(o))) {
      const n = ldString(o.name);
      if (n) names.add(nameKey(n));
    }
  }
  names.delete('');
  return names;
}
