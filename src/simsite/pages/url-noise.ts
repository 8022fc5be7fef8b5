import { hashString, mixSeed } from '../random';
import type { NewsOptions } from './news-lifecycle';

/**
 * The many URLs real news pages use for one article: tracking parameters, session ids in the
 * path or the query, the AMP variant, dot segments and fragments. The server answers all of them
 * with the same article and a `rel=canonical` to its one URL.
 */

const TRACKING: readonly ((h: number) => string)[] = [
  (h) => `utm_source=${['weibo', 'wechat', 'newsletter', 'toutiao'][h % 4]}&utm_medium=social&utm_campaign=c${h % 97}`,
  (h) => `spm=a2c${h % 10}.${10_000 + (h % 90_000)}.list.${h % 30}`,
  (h) => `from=${['timeline', 'singlemessage', 'groupmessage', 'home'][h % 4]}`,
  (h) => `utm_source=rss&utm_medium=rss&utm_content=${h % 1000}`,
];

const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0').toUpperCase();

/** A session id as servers hand them out: per client and per simulated day, 32 hex digits. */
export function sessionId(seed: number, client: string, nowMs: number): string {
  const day = Math.floor(nowMs / 86_400_000);
  const c = hashString(client);
  return [0, 1, 2, 3].map((i) => hex8(mixSeed(seed, c, day, i))).join('');
}

/** Removes `;jsessionid=…` (and any other path parameter) from a request path, as Java servers do. */
export const stripPathParams = (pathname: string): string => pathname.replace(/;[^/]*/g, '');

/** Writes hrefs to site paths as the page's options say: plain, or with the noise above. */
export class LinkStyle {
  constructor(private readonly options: NewsOptions, private readonly seed: number, private readonly session: string | null) {}

  /** Deterministic per (page, target): the same page always links the same way. */
  href(path: string, fromKey: number): string {
    const o = this.options;
    let p = path;
    const params: string[] = [];
    if (o.trackingLinks) {
      const h = mixSeed(this.seed, fromKey, hashString(path));
      const style = h % 10;
      const article = /\/\d+\.html$/.test(p);
      if (style < 4) params.push(TRACKING[style]!(h >>> 4));
      else if (style === 4 && article) p = p.replace(/\/(\d+\.html)$/, '/amp/$1');
      else if (style === 5) p = p.replace(/^\/news\//, '/news/./');
      else if (style === 6 && article) p = `${p}#comments`;
    }
    // A path parameter goes before the query and the fragment, as Java servers write it.
    if (this.session !== null && o.sessionIds === 'path') p = p.replace(/([?#]|$)/, `;jsessionid=${this.session}$1`);
    if (this.session !== null && o.sessionIds === 'query') params.push(`sid=${this.session.slice(0, 16).toLowerCase()}`);
    if (params.length === 0) return p;
    const hashAt = p.indexOf('#');
    const [base, frag] = hashAt < 0 ? [p, ''] : [p.slice(0, hashAt), p.slice(hashAt)];
    return `${base}${base.includes('?') ? '&' : '?'}${params.join('&')}${frag}`.replace(/&/g, '&amp;');
  }
}
