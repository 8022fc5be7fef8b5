import { readDate } from './dates';

/**
 * The shapes of people's and desks' names, as bylines, author cards and labels show them: what
 * bylines.ts and the author sources take for a name and what they refuse (roles, job titles,
 * headings, page tools).
 */

/** The subject of a bio's first sentence: "Ana Ruiz is a travel writer…". */
export const BIO_RE = /^(\p{Lu}[\p{L}'’.-]+(?:\s+\p{Lu}[\p{L}'’.-]*){1,3})\s+(?:is|was|has been)\s+(?:a|an|the|our)\b/u;

/** A name line on its own (a card's heading): a person's name shape, no heading words; or a name with its degrees. */
export function bareName(text: string): string | undefined {
  return text.length <= 60 && BARE_NAME_RE.test(text) && !NOT_NAME_WORD_RE.test(text) ? nameOf(text, false, true) : credentialedName(text);
}

/** Degrees and licences written after a person's name (health, law, finance writers). */
const DEGREE_RE = /^(?:M\.?D|D\.?O|Ph\.?D|PharmD|DrPH|EdD|PsyD|DVM|VMD|DDS|DMD|RDN?|LDN?|RN|BSN|MSN|NP|PA-C|MPH|MBA|MSc?|MA|BSc?|BA|JD|Esq|CPA|CFP|LCSW|LPC|CDCES|CNS|FACP|FAAP|FACS|DACVB|CSCS)\.?$/;
/** A post-nominal: an abbreviation of capitals (FOMA, DABOM, E-RYT), dotted or not. */
const POST_NOMINAL_RE = /^(?:[A-Z][A-Za-z.-]*[A-Z]\.?|Ph\.?D\.?|PharmD|DrPH|EdD|PsyD|MSc|BSc|Esq\.?)$/;

/**
 * The person of a line that names people with their degrees: "Doris Munoz-Mantilla, MD, FOMA,
 * DABOM", "Ellen Lindell, VMD, DACVB; Monique Feyrecilde, BA, LVT" (the first). A degree marks
 * a person where a bare name shape alone may be a place ("Austin, TX" has none).
 */
export function credentialedName(text: string): string | undefined {
  if (text.length > 300) return undefined;
  const words = text.split(/\s*(?:;|\s&\s|\sand\s)\s*/)[0]!.trim().split(/\s+/);
  let n = words.length;
  let degree = false;
  // Peel the post-nominals off the end: what is left is the name.
  while (n > 2 && POST_NOMINAL_RE.test(words[n - 1]!.replace(/,$/, ''))) {
    degree ||= DEGREE_RE.test(words[n - 1]!.replace(/,$/, ''));
    n--;
  }
  const name = words.slice(0, n).join(' ').replace(/,$/, '');
  return degree && BARE_NAME_RE.test(name) && !NOT_NAME_WORD_RE.test(name) ? name : undefined;
}

/** The name a label line points to: a name line, or the subject of a bio. */
export function labelledName(next: string): string | undefined {
  const name = bareName(next);
  if (name) return name;
  const bio = BIO_RE.exec(next);
  return bio ? nameOf(bio[1]!, false, true) : undefined;
}

/** What follows a name on its line: a role, a reading time, a comment count, a paid post's tag ("Help Net Security Sponsored"). */
const AFTER_NAME_RE = /\s+(?:sponsored(?: content| post)?|discussion starter|thread starter|original poster|view(?: profile)?|(?:full|senior|junior|new|registered|premium|well-known) member|member|greenhorn|moderator|administrator|admin|staff writer|contributing writer|contributor|(?:senior |deputy |former )?(?:review |tech |managing )?editor\b.*|former .*|\d+\s*(?:min|mins|minutes?)\s*read.*|\d+\s+comments?.*|[⋅·•|].*)$/i;

/** Words that stand where a byline would but are not names: labels, page tools. */
const NOT_A_NAME_RE = /^(?:by|author|authors|written by|posted by|updated|published|posted|share|follow|menu|home|comments?|reply|more|read more|subscribe)$/i;

/**
 * What stands where a byline would without being a name: a role ("Contributing Writer", "Editor
 * of X", "Chief Business…"), a label whose name is elsewhere ("Fact checked", "Edited by", "Last
 * updated on:"), a section of the site ("Guides").
 */
const ROLE_RE = /^(?:(?:senior|staff|contributing|guest|chief|managing|deputy|executive|former|associate)\s+)*(?:writer|editor|editors|contributor|reporter|correspondent|columnist|business\b.*|editor(?:ial)?\s+(?:of|at|in)\b.*)$|^(?:fact[- ]?checked|edited|reviewed|medically reviewed|last updated|updated|published)(?:\s+(?:by|on))?\s*:?$|^(?:guides?|sections?|categories|topics|resources|blog|news|articles?)$/i;
/**
 * A job title standing where a name would (an author card's second line, a quoted customer's
 * firm): "VP", "Marketing Operations Analyst", "Industry Professional". No person's name ends so.
 */
const JOB_TITLE_RE = /^(?:VP|SVP|EVP|CEO|CTO|CFO|COO|CMO|CIO)$|\s(?:analyst|professional|manager|director|officer|specialist|consultant|engineer|strategist|coordinator|president|founder|executive|intern)$/i;
/** Lower-case words inside names: van der Merwe, de la Cruz, bin Salman, Smith and Jones, The Currency editors. */
const NAME_PARTICLE_RE = /^(?:van|von|der|den|de|del|della|la|le|da|di|du|dos|das|bin|ibn|al|el|y|e|and|und|et|zu|ter|st\.?|editors|team|staff|desk|writers|reporters)$/;

/** A person's or a desk's name: a few words, no sentence punctuation, not a date. */
export function nameOf(raw: string, zh: boolean, named = false): string | undefined {
  // A call to action is no name with a place after it ("Get in touch", "Sign up at our site").
  if (/^\p{Lu}\p{Ll}+\s+(?:on|at|in)\s+\p{Ll}/u.test(raw.trim())) return undefined;
  // A mailbox after the name ("Vinay Sajip <vinay_sajip at red-dove dot com>", as mail headers write it) is no part of it.
  // A dateline's label left behind its name ("Posted by Soliant on" / "December 20, 2024"), in lower case: "Audiophile On" is a name.
  let s = raw.replace(/\s+(?:on|at)\s*$/, '').replace(/\s*<[^<>]*(?:>|$).*$/, '').replace(AFTER_NAME_RE, '').replace(/\s*(?:[|•·»—]|\s-\s|\s–\s|–(?=\d)).*$/, '').replace(/\s+(?:on|at|in|am|le|el)\s+.*$/i, '').trim();
  s = s.replace(/^(?:(?:posted|written|reviewed)\s+)?(?:by|von|por|par)\s*:?\s+/i, '').replace(/^By(?=\p{Lu})/u, '').replace(/^(?:作者|撰文|记者|記者|author)\s*[:：]\s*/i, '').replace(/[,;]\s*$/, '').trim();
  // A sentence after the name ("By Jeff Cobb. Last Updated on …"); not an initial's dot ("Lisa D. Ellis").
  s = s.replace(/(?<=\p{Ll}{2})\.\s+\p{Lu}.*$/u, '');
  // What runs on after the name: a date ("Global Commons May 2nd 2025"), a footnote mark ("Huberty1").
  s = s.replace(/\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d.*$/i, '').trim();
  // A digit after a full name is a footnote mark; after a one-word handle it is part of it ("pixel_echo6").
  if (/\s/.test(s)) s = s.replace(/(?<=\p{Ll}{2})\d$/u, '');
  // A name runs into the date after it where inline elements meet without a space ("张三2024-03-05").
  if (zh) s = s.replace(/\s.*$/, '').replace(/(?:19|20)\d{2}[-/年.]\d{1,2}[-/月.]\d{1,2}.*$/, '').replace(/(?:报道|報導|摄影|攝影)$/, '');
  if (s.length < 2 || s.length > 80 || NOT_A_NAME_RE.test(s) || ROLE_RE.test(s) || JOB_TITLE_RE.test(s) || !/\p{L}/u.test(s)) return undefined;
  if (readDate(s) || /[.!?。！？]$/.test(s) || /https?:|www\./i.test(s)) return undefined;
  const words = s.split(/\s+/);
  // A headline or a phrase, not a name: a price or a lower-case word that is no name particle ("Earbuds under $50").
  const nameWords = s.replace(/,.*$/, '').split(/\s+/);
  if (!zh && nameWords.length >= 3 && (/[$€£%#]/.test(s) || nameWords.some((w) => /^\p{Ll}/u.test(w) && !NAME_PARTICLE_RE.test(w)))) return undefined;
  // A lower-case name is a forum handle: one word, or the text of an element named for the author.
  // A name may open with a digit glued to letters ("3i Global", "37signals"), not with a number ("2 authors").
  // A list of names, or a name and its job and firm ("Benjamin Johnson, Sr. Director of Operations,
  // Atlas Van Lines"): too long for one name, its leading parts that are names are the byline's.
  if (!zh && words.length > 8 && s.includes(',')) return leadingNames(s);
  if (!zh && (words.length > 8 || (!/^(?:[\p{Lu}\p{Lo}@]|\d+\p{L})/u.test(s) && !(named || words.length === 1)))) return undefined;
  return s;
}

/** A comma part that is one person's name: a few capitalised words, name particles, a title ("Dr Marna van der Merwe"). */
const LIST_NAME_RE = /^\p{Lu}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|van|von|de|der|den|da|di|du|la|le|del)){1,4}$/u;

/** The leading comma parts of a line that are names, joined again; undefined when the first is none. */
function leadingNames(s: string): string | undefined {
  const parts = s.split(/\s*,\s*/);
  let n = 0;
  while (n < parts.length && LIST_NAME_RE.test(parts[n]!) && !NOT_NAME_WORD_RE.test(parts[n]!) && !JOB_TITLE_RE.test(parts[n]!)) n++;
  return n === 0 ? undefined : parts.slice(0, n).join(', ');
}

/**
 * A person's name alone on its line: two to four capitalised words or initials, name particles
 * between them ("Julia Gralberg", "Lisa D. Ellis", "Bence Kovács").
 */
export const BARE_NAME_RE = /^\p{Lu}[\p{L}'’-]{1,13}(?:\s+(?:\p{Lu}\.|\p{Lu}[\p{L}'’-]{1,13}|van|von|de|der|den|da|di|du|la|le|del)){1,3}$/u;
/**
 * A name line: one person's name, or a list of them ("Naftali Tishby, Fernando C. Pereira,
 * William Bialek", "Ana Ruiz and Li Wei"), as a paper's or a co-written post's byline lists its
 * authors without a "By".
 */
export function nameList(text: string): boolean {
  if (BARE_NAME_RE.test(text)) return true;
  const names = text.split(/\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+/);
  return names.length >= 2 && names.length <= 8 && names.every((n) => BARE_NAME_RE.test(n));
}

/** Words of the headings and page tools that look like a name when capitalised ("Key Takeaways", "Related Posts"). */
export const NOT_NAME_WORD_RE = /\b(?:table|contents|key|takeaways?|share|related|posts?|articles?|blog|news|home|menu|overview|introduction|summary|conclusion|about|contact|latest|popular|recent|guides?|tips|more|read|next|previous|comments?|reply|subscribe|follow|log|sign|search|writer|editor|team|staff|travel|hacks?|best|top|how|what|why|our|your|the|and|of|for|in|on|with|free|new|all|view|back|skip|main|page|section|verified|purchase|customer|reviews?|rated|helpful)\b/i;
/** A desk's name: a name and the word for its writers ("DianaHR Team", "Wirecutter Staff"). */
const DESK_NAME_RE = /^(.+?)\s+(?:team|staff|editors|desk|newsroom)$/i;

/**
 * Whether a name line is a desk's ("DianaHR Team"): what stands before the desk word is no
 * heading's or page tool's word ("Our Team", "Meet the Team" are headings). Read only beside a
 * dateline: the line is a byline there, as a person's name alone is.
 */
export function deskName(text: string): boolean {
  const m = DESK_NAME_RE.exec(text);
  return m !== null && !NOT_NAME_WORD_RE.test(m[1]!);
}

/** A person card's avatar of initials ("CP"): no name of its own. */
export const INITIALS_RE = /^\p{Lu}{1,3}$/u;
