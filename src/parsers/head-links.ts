import type { DomElement, DomNode, DomParent } from '../extractors/dom';
import type { FeedLink } from './discovery/feed-links';

const FEED_TYPES: Record<string, FeedLink['type']> = {
  'application/rss+xml': 'rss', 'application/atom+xml': 'atom', 'application/feed+json': 'json', 'application/rdf+xml': 'rdf',
};

const isEl = (n: DomNode): n is DomElement => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** What a parsed page's head says of it: `rel=canonical` (as written), the feeds it announces (resolved), its modified time. */
export interface HeadLinks {
  canonical?: string;
  feeds: FeedLink[];
  /** When the page says it was last modified (article:modified_time, og:updated_time, dateModified). */
  modifiedMs?: number;
}

const MODIFIED_META = new Set(['article:modified_time', 'og:updated_time', 'datemodified', 'last-modified']);

/**
 * Reads `<link>` elements of the head of a page already parsed (no second parse): the head's own
 * children, or the top level when a broken page has no head element. `<base href>` is honoured for
 * feed links; the canonical is returned as written, for the canonicaliser to resolve.
 */
export function headLinks(root: DomParent, pageUrl: string): HeadLinks {
  const html = root.children.find((n): n is DomElement => isEl(n) && n.name === 'html');
  const head = html?.children.find((n): n is DomElement => isEl(n) && n.name === 'head');
  const scope: DomParent = head ?? html ?? root;
  let base = pageUrl;
  const out: HeadLinks = { feeds: [] };
  const seen = new Set<string>();
  for (const n of scope.children) {
    if (!isEl(n)) continue;
    if (n.name === 'body') break;
    if (n.name === 'base' && n.attribs['href']) {
      try {
        base = new URL(n.attribs['href'], pageUrl).toString();
      } catch {
        // An unusable base leaves the page URL.
      }
      continue;
    }
    if (n.name === 'meta') {
      const key = (n.attribs['property'] ?? n.attribs['name'] ?? n.attribs['itemprop'] ?? '').toLowerCase();
      const ms = MODIFIED_META.has(key) ? Date.parse(n.attribs['content'] ?? '') : Number.NaN;
      if (Number.isFinite(ms) && out.modifiedMs === undefined) out.modifiedMs = ms;
      continue;
    }
    if (n.name !== 'link' || !n.attribs['href']) continue;
    const rel = (n.attribs['rel'] ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('canonical') && out.canonical === undefined) out.canonical = n.attribs['href'];
    const type = FEED_TYPES[(n.attribs['type'] ?? '').toLowerCase().trim()];
    if (!rel.includes('alternate') || type === undefined) continue;
    try {
      const u = new URL(n.attribs['href'], base);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && !seen.has(u.href)) {
        seen.add(u.href);
        out.feeds.push({ url: u.href, type, ...(n.attribs['title'] ? { title: n.attribs['title'] } : {}) });
      }
    } catch {
      // Not a URL: not a feed.
    }
  }
  return out;
}
