/**
 * Whether a serialised URL has the given origin, told from its prefix alone: a URL that starts with
 * an http(s) origin's exact serialisation followed by `/` has that origin. False says only "not by
 * its prefix" (another host, or credentials before it): the caller parses those.
 */
export function underOrigin(url: string, origin: string): boolean {
  return url.startsWith(origin) && url.charCodeAt(origin.length) === 47; /* / */
}
