import { Parser } from 'htmlparser2';

/** A feed a page announces. */
export interface FeedLink {
  url: string;
  type: 'rss' | 'atom' | 'json' | 'rdf';
  title?: string;
}

const TYPES: Record<string, FeedLink['type']> = {
  'application/rss+xml': 'rss',
  'application/atom+xml': 'atom',
  'application/feed+json': 'json',
  'application/json': 'json',
  'application/rdf+xml': 'rdf',
  'text/xml': 'rss',
  'application/xml': 'rss',
};

/**
 * Feeds a page announces in its head: `<link rel="alternate" type="application/rss+xml" href>`
 * (also Atom, JSON Feed, RDF), resolved against `<base href>` or the page URL, first one first,
 * each URL once. Reads only up to `</head>` (or the first `<body>`), where they must be.
 */
export function discoverFeeds(html: string, pageUrl: string): FeedLink[] {
  const found: { href: string; type: FeedLink['type']; title?: string }[] = [];
  let base = pageUrl;
  let done = false;
  const parser = new Parser({
    onopentag(name, attrs) {
      if (done) return;
      if (name === 'body') {
        done = true;
        return;
      }
      if (name === 'base' && attrs['href']) {
        try {
          base = new URL(attrs['href'], pageUrl).toString();
        } catch {
          // An unusable base leaves the page URL as the base.
        }
      }
      if (name !== 'link') return;
      const rel = (attrs['rel'] ?? '').toLowerCase().split(/\s+/);
      const type = TYPES[(attrs['type'] ?? '').toLowerCase().split(';')[0]!.trim()];
      if (!rel.includes('alternate') || type === undefined || !attrs['href']) return;
      found.push({ href: attrs['href'], type, ...(attrs['title'] ? { title: attrs['title'] } : {}) });
    },
    onclosetag(name) {
      if (name === 'head') done = true;
    },
  }, { decodeEntities: true });
  // The head is near the top: a page's first 64 KB hold it.
  parser.end(html.length > 65_536 ? html.slice(0, 65_536) : html);
  const out: FeedLink[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    let url: string;
    try {
      const u = new URL(f.href, base);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
      url = u.toString();
    } catch {
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({ url, type: f.type, ...(f.title ? { title: f.title } : {}) });
  }
  return out;
}
