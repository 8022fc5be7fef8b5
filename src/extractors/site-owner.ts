import { nameOf } from './person-names';

/**
 * Who a personal site belongs to: the last resort for the author of a page that names no one
 * else. A site says so in its name ("Colin Watson's blog") or is named for its owner
 * (`owain.bearblog.dev` titled "… | Owain Brennan").
 */

/** A site named for its owner: "Colin Watson's blog", "Ana Ruiz's notes". */
const OWNED_SITE_RE = /^(.+?)['’]s\s+(?:blog|weblog|site|web ?site|homepage|home page|notes|journal|journey|musings|newsletter)$/i;

/** Platforms that give every writer a subdomain of their own (a blog, a newsletter, a page). */
const PERSONAL_HOST_RE = /\.(?:bearblog\.dev|substack\.com|wordpress\.com|blogspot\.com|medium\.com|github\.io|gitlab\.io|tumblr\.com|ghost\.io|micro\.blog|hashnode\.dev|writeas\.com|mataroa\.blog|prose\.sh|svbtle\.com|typepad\.com|livejournal\.com|neocities\.org)$/;

/** Two or three capitalised words: the shape of a person's name in a title or a copyright line. */
export const PERSON_RE = /^\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’.-]*){1,2}$/u;

const key = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '');

/** The labels of a URL's host that can name its owner (not `www`, not the public suffix). */
function hostLabels(url: string | undefined): string[] {
  const host = url ? /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1] ?? '' : '';
  const labels = host.toLowerCase().split('.').filter((l) => l !== 'www');
  return labels.slice(0, -1).map((l) => l.replace(/[^a-z0-9]+/g, ''));
}

/** The registrable label of a URL's host, as a key (`news.clemson.edu` → `clemson`, `www.corti.ai` → `corti`). */
export function hostKey(url: string | undefined): string {
  const host = url ? /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1] ?? '' : '';
  const labels = host.toLowerCase().split('.');
  // Skip a second-level public suffix (co.uk, com.au).
  const i = labels.length >= 3 && /^(?:co|com|org|net|ac|gov|edu)$/.test(labels[labels.length - 2]!) ? labels.length - 3 : labels.length - 2;
  return (labels[i] ?? '').replace(/[^a-z0-9]+/g, '');
}

/**
 * The owner of a personal site: a name its og:site_name/application-name states as the owner's,
 * else a person named in the site name or the document title's parts whose first name is the site's own subdomain on a blog host (`owain.bearblog.dev`, "Owain Brennan").
 * A host spelling the whole name is no evidence: businesses are named so too ("Menlo Coaching").
 */
export function siteOwner(meta: Map<string, string>, docTitle: string, url: string | undefined): string | undefined {
  for (const k of ['og:site_name', 'application-name']) {
    const m = OWNED_SITE_RE.exec(meta.get(k) ?? '');
    const name = m ? nameOf(m[1]!, false) : undefined;
    if (name) return name;
  }
  // The subdomains only (`owain` of owain.bearblog.dev), on a host that gives each writer one.
  const host = url ? /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? '' : '';
  if (!PERSONAL_HOST_RE.test(host)) return undefined;
  const labels = hostLabels(url).slice(0, -1);
  if (labels.length === 0) return undefined;
  const candidates = [meta.get('og:site_name'), meta.get('application-name'), ...docTitle.split(/\s+[-|–—·»:]\s+|[()]/)];
  for (const c of candidates) {
    const name = c?.trim();
    if (!name || !PERSON_RE.test(name)) continue;
    const first = key(name.split(/\s+/)[0]!);
    if (first.length >= 4 && labels.includes(first)) return name;
  }
  return undefined;
}
