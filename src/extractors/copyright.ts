import { normalizeSpace, textContent } from './dom';
import { nameKey as key } from './json-ld';
import type { PageElements } from './page-elements';
import { PERSON_RE } from './site-owner';

/**
 * Who holds a personal site's copyright: the last resort for the author of a page that names no
 * one else (a personal blog whose template shows no byline, only "© 2025 Toby Hede" in its footer).
 */

/** A copyright line's holder, the whole name up to a stop: "© 2025 Toby Hede. All rights reserved.", "© 2019-2025 by Ana Ruiz" (not "Site Search" of "Site Search 360"). */
const COPYRIGHT_RE = /©\s*(?:copyright\s+)?(?:(?:19|20)\d{2}(?:\s*[-–]\s*(?:19|20)\d{2})?)?\s*,?\s*(?:by\s+)?([^.,|©\d]{3,40}?)\s*(?=[.,|]|$|all rights)/i;
/** Words of a company's or an institution's name, not a person's. */
const ORG_WORD_RE = /\b(?:inc|ltd|llc|llp|plc|corp|corporation|co|company|group|limited|gmbh|pte|pty|ag|sa|media|news|press|foundation|university|college|institute|association|union|hospitals?|partners|holdings|studios?|labs?|network|magazine|society|services|solutions|systems|technologies|all|rights|reserved)\b/i;

/**
 * The person a copyright line names as the holder (a personal site's footer: "© 2025 Toby
 * Hede"): the last resort for the author of a page that names no one else; a company or an
 * institution holding the copyright is not the author.
 */
function copyrightPerson(text: string | undefined): string | undefined {
  const holder = text ? COPYRIGHT_RE.exec(text)?.[1]?.trim() : undefined;
  return holder && PERSON_RE.test(holder) && !ORG_WORD_RE.test(holder) ? holder : undefined;
}

/**
 * The person a copyright line names on a site that is theirs: its address spells the name
 * (`tobyhede.com`) or a headline or the title shows it (a personal site's masthead), and it is
 * not the site's or its publisher's name (`siteKeys`: og:site_name, JSON-LD publisher or
 * Organization; a business's own name is no author).
 */
export function copyrightAuthor(els: PageElements, siteKeys: ReadonlySet<string>, url?: string): string | undefined {
  const holder = copyrightPerson(els.copyright);
  if (!holder || siteKeys.has(key(holder))) return undefined;
  const k = key(holder);
  const host = url ? /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1]?.toLowerCase().replace(/[^a-z0-9]+/g, '') ?? '' : '';
  const title = els.title ? normalizeSpace(textContent(els.title)) : '';
  return host.includes(k) || title.includes(holder) || els.h1s.some((h) => key(textContent(h)) === k) ? holder : undefined;
}
