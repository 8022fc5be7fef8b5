/**
 * hrefs of plain path characters that start with one `/`: the page's origin followed by the href
 * is exactly what URL resolution gives (no dot segment, nothing to percent-encode), without
 * parsing a URL per link — a page links to some 80 of them.
 */
const PLAIN_ROOT_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*(?:\.[A-Za-z0-9]+)?(?:\?[A-Za-z0-9_\-=&]*)?$/;

/** Resolves the hrefs of one page against its URL; undefined for an href that does not resolve. */
export function urlResolver(base: string): (href: string) => string | undefined {
  let origin: string | undefined;
  try {
    const u = new URL(base);
    // Credentials in the base stay in a resolved URL but not in its origin.
    if ((u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password) origin = u.origin;
  } catch {
    origin = undefined;
  }
  return (href) => {
    if (origin !== undefined && PLAIN_ROOT_PATH.test(href)) return origin + href;
    try {
      return new URL(href, base).toString();
    } catch {
      return undefined;
    }
  };
}
