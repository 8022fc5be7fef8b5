import { invalidUrl } from './fetch-errors';

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The URL a fetch may target: absolute http(s), a host, no userinfo. */
export function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl(String(raw).slice(0, 2048), 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidUrl(raw, `unsupported scheme ${url.protocol}`);
  if (url.username || url.password) throw invalidUrl(raw, 'credentials in the URL');
  if (!url.hostname) throw invalidUrl(raw, 'no host');
  return url;
}

/** A redirect's Location, resolved against the URL that answered it. */
export function resolveLocation(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    throw invalidUrl(location.slice(0, 2048), 'redirect Location is not a URL');
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw invalidUrl(next.href, `redirect to unsupported scheme ${next.protocol}`);
  if (next.username || next.password) throw invalidUrl(next.href, 'credentials in the redirect URL');
  next.hash = '';
  return next;
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** undici gives repeated headers as arrays; the response contract is one string per name. */
export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  for (const k in h) {
    const v = h[k];
    if (Array.isArray(v)) h[k] = v.join(k === 'set-cookie' ? '\n' : ', ');
    else if (v === undefined) delete h[k];
  }
  return h as Record<string, string>;
}
