import type { Block } from './blocks';
import { onStampDay, readDate } from './dates';
import { BARE_NAME_RE, bareName, BIO_RE, credentialedName, deskName, INITIALS_RE, labelledName, nameList, nameOf, NOT_NAME_WORD_RE } from './person-names';
import { DATED_LABEL_RE, signatureName } from './signatures';
import { BLOCK_TAGS } from './clean';
import { isElement, normalizeSpace, textContent, type DomElement, type DomParent } from './dom';

/**
 * What a page shows under or above its headline: the dateline ("Updated March 5, 2024",
 * "发布时间：2024-03-05 10:20") and the byline ("By Ana Ruiz", "Written by" + a name, "作者：张三").
 * Readers see these, and they are what the page means by its date and author; metadata tags
 * often carry a first-publication date years older, or the publisher for the author.
 */
export interface Byline {
  /** Dates shown near the headline, nearest first, with what their line calls them. */
  dates: Array<{ iso: string; label: 'original' | 'published' | 'updated' | 'none'; distance: number; alt?: string }>;
  author?: string;
  /** The author's name followed a label on the page ("By", "Written by", "Author:"), not only a date or a class. */
  authorLabelled?: true;
  /** A "Written by …" line anywhere on the page (an author box at the foot of the article). */
  signed?: string;
  /** A line near the headline, beside its dateline, that is a person's name and nothing else (a byline without "By"). */
  bare?: string;
  /** The one name the page's "By …" lines give, far from the headline (an author box at the foot). */
  elsewhere?: string;
}

/** "Written by Ana Ruiz", "This post was written by Ana Ruiz, Head of Marketing". */
const SIGNED_RE = /^(?:this (?:post|article|guide|story) was )?(?:written|authored) by\s+(.+)$/i;

/** A line naming the role of the name above it: "| Author", "Author", "— Staff writer". */
const ROLE_LINE_RE = /^[\s|·•–—-]*(?:author|writer|staff writer|contributing writer|contributor|guest author)\s*$/i;

/** Whether a line is a bio of the person a name line names: it opens with the name or its first word and "is", "was", "has", and says "he" or "she". */
function bioOf(name: string, line: string): boolean {
  const first = name.split(/\s+/)[0]!;
  if (!line.startsWith(first)) return false;
  const rest = line.startsWith(name) ? line.slice(name.length) : line.slice(first.length);
  // A person's bio speaks of him or her (a company's blurb opens the same way).
  return /^\s+(?:is|was|has|has been)\s/.test(rest) && /\b(?:he|she|his|her|him)\b/i.test(rest);
}

/** Lines looked at before and after the headline (a dateline sits just above or below it). */
const BEFORE = 6;
const AFTER = 30;
/** A dateline or byline is a short line; a date inside a sentence is something else. */
const MAX_LINE_CHARS = 160;

/** A forum poster's join date (a profile's "Founded:" on some boards), not a date of the page. */
const MEMBER_SINCE_RE = /\b(?:joined|member since|registered|join date|reg\.? date|founded)\b|注册|註冊|加入/i;
/** A change's date, or a thread's latest post's ("last post by ana Sep 26, 2024", "Latest reply"): not when the page appeared. */
const UPDATED_RE = /\b(?:updated|modified|last (?:updated|modified|reviewed)|reviewed|revised|(?:last|latest) (?:post|reply|activity))\b|更新/i;
/** "Originally published November 9, 2022", "First published on": the first appearance, stated as such. */
const ORIGINAL_RE = /\b(?:originally|first)\s+(?:published|posted|appeared)\b/i;
const PUBLISHED_RE = /\b(?:published|posted|released|written|date)\b|发布|發布|发表|發表|日期|时间|時間/i;

/** A byline naming a desk rather than a person: "Aidoc Staff", "Team Tiger Data", "The Editors". */
export const DESK_RE = /\b(?:staff|team|editors|editorial|desk|newsroom)\b/i;

/** `By Ana Ruiz`, `Written by Ana Ruiz`, `Author: Ana Ruiz`; and anywhere in a line `作者：张三`, `文／张三`. */
const BYLINE_RE = /^(?:(?:written|posted|reported|words|story|text|recipe|guide|article|review|authored|originally posted)\s+)?(?:by|von|por|par|door|di)\s*[:：]?\s+(.+)$|^(?:author|authors|writer|contributors?|autor|auteur)\s*[:：]\s*(.+)$|(?:作者|撰文|记者|記者|(?:^|\s)文)\s*[:：/／]\s*(\S+)/i;
/** "Written byAna Ruiz": inline markup without a space between the label and the name. */
const GLUED_BYLINE_RE = /^(?:[Ww]ritten|[Pp]osted|[Aa]uthored|WRITTEN|POSTED) (?:by|BY)(?=\p{Lu})(.+)$/u;
/** A label line whose name follows on the next line. */
export const LABEL_RE = /^(?:(?:(?:article|post|story)\s+)?(?:written|posted|article|authored|recipe|guide)\s+by|by|authors?(?: of this article)?|contributors?|about the author|insights from|作者)\s*[:：]?$/i;
/** An element whose class or id names it as the author's (author-name, byline, post-author…). */
export const AUTHOR_CLASS_RE = /author|byline|writer|contributor|posted-?by|user-?name|poster|member-?name|message-?name/i;
// An author card's other slots name the person's job or firm (`author-position`, `author_des`,
// `testimonial-author-company`), and a testimonial's author is a quoted customer, not the writer.
const NOT_NAME_CLASS_RE = /avatar|image|img|photo|bio|desc|title-?wrap|date|time|label|caption|social|link-?list|comment|position|company|job|role|designation|(?:^|[_-])des(?:$|[\s_-])|category|testimonial/i;

function authorElement(b: Block): boolean {
  for (let p: DomParent | null = b.owner, depth = 0; p && depth < 3; p = p.parent, depth++) {
    if (!isElement(p)) return false;
    const a = (p as DomElement).attribs;
    const words = `${a.class ?? ''} ${a.id ?? ''} ${a.itemprop ?? ''} ${a.rel ?? ''}`;
    if (AUTHOR_CLASS_RE.test(words) && !NOT_NAME_CLASS_RE.test(a.class ?? '')) return true;
  }
  return false;
}

/** How far line i is from the nearest anchor, lines above an anchor counting three times (as in `around`). */
function nearest(anchors: number[], i: number): number {
  return Math.min(...anchors.map((a) => (i >= a ? i - a : 3 * (a - i))));
}

/**
 * Lines around each anchor, nearest first (the headline's own dateline rather than a related
 * story's further down); lines above an anchor count as three times as far (a site header's
 * "today's date" sits above the headline, a dateline mostly below it).
 */
function around(anchors: number[], n: number): Array<[number, number]> {
  const seen = new Set<number>();
  const out: Array<[number, number]> = [];
  for (const anchor of anchors) {
    const window: Array<[number, number]> = [];
    for (let i = Math.max(0, anchor - BEFORE); i <= Math.min(n - 1, anchor + AFTER); i++) window.push([i, i >= anchor ? i - anchor : 3 * (anchor - i)]);
    window.sort((a, b) => a[1] - b[1]);
    for (const [i, d] of window) {
      if (seen.has(i)) continue;
      seen.add(i);
      out.push([i, d]);
    }
  }
  return out;
}

/**
 * The block line of each element named for the author (pageElements finds them) and the
 * element's own text: an inline `<span class="author-name">` sits inside a line of its own.
 */
export function authorLines(els: DomElement[]): Map<DomParent, string> {
  const out = new Map<DomParent, string>();
  for (const el of els) {
    if (NOT_NAME_CLASS_RE.test(el.attribs.class ?? '')) continue;
    let owner: DomParent | null = el;
    while (owner && isElement(owner) && !BLOCK_TAGS.has(owner.name)) owner = owner.parent;
    const text = normalizeSpace(textContent(el));
    if (owner && text && !out.has(owner)) out.set(owner, text);
  }
  return out;
}

/** A break between Chinese clauses or sentences (。，；！？). */
const CJK_CLAUSE_END_RE = /[。，；！？][^。，；！？]*$/;

/**
 * The words that may label a date at `index` of a line: the line up to the date, with the tail of
 * the line before ("Updated" / "March 5, 2024"). A Chinese clause break before the date cuts
 * both: the label stands in the date's own clause ("发布时间：2011-12-15"), and a sentence that
 * mentions 发布 or 时间 before a date it quotes ("…全食时间有51分钟。这是继2001年1月10日之后") is no dateline.
 */
function labelContext(prev: string, text: string, index: number): string {
  const before = text.slice(0, index + 1);
  const clause = CJK_CLAUSE_END_RE.exec(before);
  return clause ? clause[0].slice(1) : `${prev.slice(-40)} ${before}`;
}

/** What a dateline calls its date, from the words before it. */
function dateLabel(context: string): 'original' | 'published' | 'updated' | 'none' {
  if (ORIGINAL_RE.test(context)) return 'original';
  return UPDATED_RE.test(context) ? 'updated' : PUBLISHED_RE.test(context) ? 'published' : 'none';
}

/**
 * A dateline without a year or as a blog platform words it: "Jan 23", "2 days ago", "Updated: Jan
 * 31". readDate needs a year, and these template lines carry none.
 */
const SHORT_DATELINE_RE = /^(?:(?:updated|published|posted)\s*:?\s*)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?|(?:an?|\d+)\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago)$/i;
/** A reading time: "11 min read", "5 Min Read", "3 minute read". */
const READING_TIME_RE = /^\d+\s*(?:min|mins|minutes?)\.?\s+read$/i;

/** Whether a short line is a dateline: a full date, or one without its year. */
function datelineShaped(text: string, dayFirst: boolean): boolean {
  return text.length <= 60 && (SHORT_DATELINE_RE.test(text.trim()) || readDate(text, dayFirst) !== undefined);
}

/** A one-word name (a first name, a brand, "Dr. Allen"): what a blog platform's byline shows above its date. */
const ONE_NAME_RE = /^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?\p{Lu}[\p{L}'’-]{1,24}$/u;

/**
 * The name of a byline block right under the headline: a name line, then its date, then a reading
 * time ("Gabo" / "Jan 23" / "11 min read", "ServiceTitan" / "November 26th, 2024" / "10 Min Read").
 * The three lines in that order are a byline even when the name is one word (a first name, a
 * brand), which a name line alone could not tell from a category label.
 */
function bylineBlockName(blocks: Block[], i: number, dayFirst: boolean): string | undefined {
  const text = blocks[i]!.text;
  const date = blocks[i + 1]?.text;
  const after = blocks[i + 2]?.text;
  if (date === undefined || after === undefined || !ONE_NAME_RE.test(text) || NOT_NAME_WORD_RE.test(text)) return undefined;
  return datelineShaped(date, dayFirst) && READING_TIME_RE.test(after.trim()) ? text : undefined;
}

/** How far below the headline (in lines) a bare name is its byline. */
const BARE_NAME_LINES = 3;

/** How near the anchor (in lines) a dateline's name after the date is the page's byline. */
const NEAR_DATELINE = 10;

/** "· Niko Matsakis", "by Nicole Burke", "| Ana Ruiz" after a dateline's date. */
const AFTER_DATE_NAME_RE = /^\s*(?:[|·•⋅,–—-]\s*)?(?:by\s+)?(\p{Lu}.*)$/u;

/** A "By …" part of a dateline split at its separators. */
function datelinePart(text: string): RegExpExecArray | null {
  for (const part of text.split(/\s+[·•⋅|]\s+/)) {
    const m = BYLINE_RE.exec(part.trim());
    if (m) return m;
  }
  return null;
}

/** The name a dateline gives after its date ("Dec. 19, 2025 · Niko Matsakis", "Published August 7, 2023 by Nicole Burke"). */
function nameAfterDate(rest: string): string | undefined {
  const m = AFTER_DATE_NAME_RE.exec(rest);
  if (m && !readDate(m[1]!)) return nameOf(m[1]!, false);
  // The name after a reading time or a word count ("December 15, 2025 · 30 min · 6279 words · Ash Vardanian").
  const parts = rest.split(/\s*[·•⋅|]\s*/).map((p) => p.trim()).filter(Boolean);
  const first = parts.find((p) => !/^\d/.test(p));
  return first !== undefined && BARE_NAME_RE.test(first) && !NOT_NAME_WORD_RE.test(first) ? first : undefined;
}

/** The name a dateline gives before its date ("Mike Kappel May 18, 2016"): a person's name alone, no place's comma. */
function nameBeforeDate(head: string): string | undefined {
  const s = head.replace(/\s*[|·•⋅–—-]\s*$/, '').trim();
  // A date's label ("Last Updated", "Posted On") is no name.
  if (UPDATED_RE.test(s) || PUBLISHED_RE.test(s) || ORIGINAL_RE.test(s)) return undefined;
  return BARE_NAME_RE.test(s) && !NOT_NAME_WORD_RE.test(s) ? nameOf(s, false) : undefined;
}

/**
 * The dateline and byline around the anchors: the headline, then the start of the content
 * (some templates put the headline in a hero far above the article and its byline).
 */
export function findByline(
  blocks: Block[], anchors: number[], opts: { zh: boolean; dayFirst: boolean; authorLines?: Map<DomParent, string>; headline?: number },
): Byline {
  const out: Byline = { dates: [] };
  // A name alone under the headline without a dateline beside it: a byline only if the page's bio of that person confirms it.
  let undated: string | undefined;
  for (const [i, distance] of around(anchors, blocks.length)) {
    const b = blocks[i]!;
    const text = b.text;
    if (text.length > MAX_LINE_CHARS) continue;
    const owner = b.owner;
    const stamp = isElement(owner) && owner.name === 'time' && owner.attribs.datetime ? readDate(owner.attribs.datetime)?.iso : undefined;
    const read = readDate(text, opts.dayFirst);
    if ((read || stamp) && !MEMBER_SINCE_RE.test(text)) {
      // A label may sit on the line before ("Updated" / "March 5, 2024").
      const label = dateLabel(labelContext(i > 0 ? blocks[i - 1]!.text : '', text, read?.index ?? 0));
      // A date in the headline itself is part of its words (a version number "2024.4.4", an event's day).
      if (i !== opts.headline) out.dates.push({ iso: onStampDay(read?.iso, stamp, isElement(owner) ? owner.attribs.datetime?.trim() : undefined) ?? stamp!, label, distance, ...(read?.alt ? { alt: read.alt } : {}) });
      // A second date on the same line: "Published Jan 5, 2024 · Updated Mar 1, 2024",
      // "Updated Nov 11, 2022 8:23 PM ET Originally published Nov 9, 2022".
      if (read) {
        const rest = text.slice(read.end);
        const second = readDate(rest, opts.dayFirst);
        if (second) {
          const before = rest.slice(0, second.index + 1);
          out.dates.push({ iso: second.iso, label: ORIGINAL_RE.test(before) ? 'original' : UPDATED_RE.test(before) ? 'updated' : 'none', distance });
        }
      }
    }
    // A name as a minor heading under the headline (an <h3>) is a byline all the same; the
    // nearest anchor counts (the content's start when the title matched a logo line far above).
    // Names with their degrees under the headline are its byline, dated or not ("Ellen Lindell, VMD, DACVB; …").
    // Right under an <h1> counts as under the headline where the headline was not matched to the title.
    if (out.bare === undefined && !opts.zh && b.heading === 0 && (nearest(anchors, i) <= BARE_NAME_LINES || blocks[i - 1]?.heading === 1)) out.bare = credentialedName(text);
    if (out.bare === undefined && !opts.zh && nearest(anchors, i) <= BARE_NAME_LINES && (b.heading === 0 || (b.heading >= 3 && opts.headline !== undefined && i > opts.headline && !anchors.includes(i))) && nameList(text)) {
      const dated = [blocks[i - 1], blocks[i + 1]].some((x) => x !== undefined && datelineShaped(x.text, opts.dayFirst));
      if (!NOT_NAME_WORD_RE.test(text)) {
        if (dated) out.bare = text;
        else undated ??= text;
      } else if (dated && deskName(text)) out.bare = text;
    }
    if (out.bare === undefined && !opts.zh && b.heading === 0 && nearest(anchors, i) <= 1) out.bare = bylineBlockName(blocks, i, opts.dayFirst);
    if (out.author === undefined) {
      // The element named for the author first: its own text, not the line it runs into.
      const named = opts.authorLines?.get(b.owner);
      // A dateline's parts ("March 15, 2022 · 3 min read · By ASU Online") are read one by one.
      const m = BYLINE_RE.exec(text) ?? GLUED_BYLINE_RE.exec(text) ?? (read ? datelinePart(text) : null);
      const next = blocks[i + 1];
      const rest = read ? text.slice(read.end) : '';
      const fromElement = named !== undefined ? nameOf(named, opts.zh, true) : undefined;
      // The label's name where the element named for the author holds more than a name ("Author Posted by Soliant").
      const fromLabel = m && fromElement === undefined ? nameOf(m[1] ?? m[2] ?? m[3] ?? '', opts.zh) : undefined;
      // An avatar of initials ("CP") may stand between the label and the name.
      const afterInitials = next && INITIALS_RE.test(next.text) ? blocks[i + 2] : next;
      const afterLabel = (): string | undefined => (LABEL_RE.test(text) && afterInitials ? nameOf(afterInitials.text, opts.zh) : undefined);
      // A teaser's dateline further down names its own author; a name may stand on the line
      // after a date that ends its own ("Dec 26, 2025 •" / "Mahua Das in Project Management").
      const fromDate = read && !opts.zh && distance <= NEAR_DATELINE
        ? nameAfterDate(rest) ?? (/^\s*[|·•⋅,–—-]\s*$/.test(rest) && next && next.text.length <= 60 ? nameAfterDate(next.text) : undefined) ?? nameBeforeDate(text.slice(0, read.index))
        : undefined;
      // What a label names ("By Ana Ruiz", "Written by" / "Ana Ruiz"), as against a name read off a dateline or a class.
      const labelled = fromLabel ?? (fromDate === undefined ? afterLabel() : undefined);
      const name = fromElement
        ?? fromLabel
        ?? fromDate
        ?? labelled
        ?? (text.length <= 60 && authorElement(b) ? nameOf(text, opts.zh, true) : undefined);
      if (name) out.author = name;
      // The element named for the author may itself follow the label ("by <a class=author>Ana Ruiz</a>").
      if (name !== undefined && (name === labelled || (name === fromElement && m !== null))) out.authorLabelled = true;
    }
  }
  if (out.bare === undefined && undated !== undefined) out.bare = bioConfirms(blocks, undated);
  if (out.author === undefined && !opts.zh) out.elsewhere = soleByline(blocks);
  // A byline naming only a desk ("By Team Tiger Data") may give way to the writer an author box names.
  if (out.author === undefined || DESK_RE.test(out.author)) {
    for (let i = 0; i < blocks.length && out.signed === undefined; i++) {
      const text = blocks[i]!.text;
      if (text.length > MAX_LINE_CHARS) continue;
      const m = SIGNED_RE.exec(text);
      const next = blocks[i + 1]?.text;
      // An author box anywhere on the page: its label on a line of its own, the name or a bio
      // ("Ana Ruiz is a travel writer…") on the next ("Author" / "Ana Ruiz" beside the article).
      // Or the name first and its role or a bio of that person after it ("Ana Ruiz" / "| Author",
      // "Ana Ruiz" / "Ana is the head of marketing at…": an author card).
      out.signed = m ? nameOf(m[1]!.replace(/,.*$/, ''), opts.zh)
        : DATED_LABEL_RE.test(text) ? signedAt(text, opts.dayFirst)
        : opts.zh || next === undefined ? undefined
          : LABEL_RE.test(text) && !/^by$/i.test(text.trim()) ? labelledName(next)
            : ROLE_LINE_RE.test(next) || bioOf(text, next) ? bareName(text) : undefined;
    }
  }
  return out;
}

/** A "By …" line: "By Scott Kasun", "By: Ana Ruiz". */
const BY_LINE_RE = /^by\s*:?\s+(.+)$/i;
/** Longer lines are a sentence that opens with "By" ("By the end of the year…"). */
const MAX_BY_LINE_CHARS = 80;

/**
 * The name of the page's "By …" lines anywhere, where they all name one person (an author box at
 * the foot, the same byline repeated): lines naming several people are teasers of other posts,
 * each with its own author.
 */
function soleByline(blocks: Block[]): string | undefined {
  let name: string | undefined;
  for (const b of blocks) {
    if (b.text.length > MAX_BY_LINE_CHARS) continue;
    const m = BY_LINE_RE.exec(b.text);
    const found = m ? nameOf(m[1]!, false) : undefined;
    if (found === undefined) continue;
    if (name !== undefined && found.toLowerCase() !== name.toLowerCase()) return undefined;
    name = found;
  }
  return name;
}

/** The name a dated signature gives ("Last updated March 3, 2025 by Erik Demaine."), checked as a name. */
function signedAt(text: string, dayFirst: boolean): string | undefined {
  const raw = signatureName(text, dayFirst);
  return raw === undefined ? undefined : nameOf(raw, false);
}

/**
 * The name when a line of the page opens a bio of that person ("Julia Gralberg is a freelance
 * travel writer…", an author card at the foot): a name alone under the headline is then its byline.
 */
function bioConfirms(blocks: Block[], name: string): string | undefined {
  const first = `${name} `;
  return blocks.some((b) => b.text.startsWith(first) && BIO_RE.exec(b.text)?.[1] === name) ? name : undefined;
}

/**
 * A date the page labels as its publication's anywhere ("Posted on April 13, 2023", "Published" /
 * "Feb 2, 2023"): the last resort of pages whose template puts the dateline far from the
 * headline (a side column, the foot of the article) and states no date in its metadata.
 * `updated` finds a date labelled as the last change instead ("Last updated: November 13, 2025").
 */
export function labelledDate(blocks: Block[], dayFirst: boolean, kind: 'original' | 'published' | 'updated' = 'published'): string | undefined {
  // Whether the line before held a date of its own (read in the step before, not again).
  let prevDated = false;
  for (let i = 0; i < blocks.length; i++) {
    const text = blocks[i]!.text;
    if (text.length > MAX_LINE_CHARS) {
      prevDated = false;
      continue;
    }
    if (kind === 'original') {
      // The label first (cheap), then the date after it, on its line or the next.
      const label = ORIGINAL_RE.exec(text);
      if (!label || MEMBER_SINCE_RE.test(text)) continue;
      const after = readDate(text.slice(label.index), dayFirst) ?? (blocks[i + 1] && blocks[i + 1]!.text.length <= MAX_LINE_CHARS ? readDate(blocks[i + 1]!.text, dayFirst) : undefined);
      if (after) return after.iso;
      continue;
    }
    // The date first: most lines have none (readDate rules them out in one scan), and only a
    // line with one is asked whether it is a member's join date.
    const read = readDate(text, dayFirst);
    const prevHadDate = prevDated;
    prevDated = read !== undefined;
    if (!read || MEMBER_SINCE_RE.test(text)) continue;
    // The line before labels this one's date unless it states a date of its own ("Last updated
    // July 18, 2025" above "Posted on April 13, 2023").
    const context = labelContext(prevHadDate || i === 0 ? '' : blocks[i - 1]!.text, text, read.index);
    if (kind === 'updated') {
      if (UPDATED_RE.test(context)) return read.iso;
    } else if (PUBLISHED_RE.test(context) && !UPDATED_RE.test(context) && !ORIGINAL_RE.test(context)) return read.iso;
  }
  return undefined;
}
