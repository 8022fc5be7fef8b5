import type { Block } from './blocks';

/**
 * A post's moment given relative to the moment the page was served ("2 years ago", "Today at
 * 3:26 AM", WallStreetOasis-style "2y"): true only on the day of the crawl, and read later (in an
 * index, in an archive) it states a wrong time. The post's real date sits in the markup (the
 * stamp's `datetime` or `title`), where the metadata readers find it. The thread's gold texts
 * leave these stamps out, and keep the absolute dates other engines print.
 */
const UNITS = 'seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?';
const AGO = `(?:\\d+|an?|one)\\s+(?:${UNITS})\\s+ago`;
const DAY_AT = '(?:today|yesterday)(?:\\s+at\\s+\\d{1,2}:\\d{2}(?:\\s*[ap]\\.?m\\.?)?)?';
/**
 * A compact age alone on its line ("2y", "17h", "3d"): lower case, no space, two digits at most
 * (a spec's "450W", "3D" or a video's "6 min" are no ages).
 */
const COMPACT_RE = /^\d{1,2}(?:h|d|w|mo|y)$/;

/** A line that is nothing but a relative stamp, maybe labelled ("Posted 2 hours ago"). */
const BARE_RE = new RegExp(`^(?:posted\\s+)?(?:${AGO}|${DAY_AT})$`, 'i');
/** A post header of a name, the stamp and the post's number ("Need2KnowLion 2 years ago#1"). */
const NUMBERED_RE = new RegExp(`^(\\S.{0,40}?)\\s+(?:${AGO}|${DAY_AT})\\s*(#\\d+)$`, 'i');
/** A quote's attribution that opens with the stamp ("14 hours ago, Joe Root said:"). */
const ATTRIBUTION_RE = new RegExp(`^(?:${AGO}|${DAY_AT}),\\s+(\\S.{0,60}\\s(?:said|wrote|posted)\\s*(?::|\\.{3}|…))$`, 'i');

/** The line without its relative stamp: '' when the stamp is all of it, the line itself when it holds none in a header's place. */
export function withoutRelativeStamp(text: string): string {
  const t = text.trim();
  if (BARE_RE.test(t) || COMPACT_RE.test(t)) return '';
  const numbered = NUMBERED_RE.exec(t);
  if (numbered) return `${numbered[1]} ${numbered[2]}`;
  const quoted = ATTRIBUTION_RE.exec(t);
  return quoted ? quoted[1]! : text;
}

/**
 * A thread's lines without the relative stamps of its posts (see above): a line that is only the
 * stamp goes, a header that holds one (a name and the post's number, a quote's attribution)
 * keeps the rest. A sentence that says when something happened ("I built it 2 years ago") is text.
 */
export function dropRelativeStamps(lines: Block[]): Block[] {
  let changed = false;
  const out: Block[] = [];
  for (const b of lines) {
    const text = withoutRelativeStamp(b.text);
    if (text === b.text) {
      out.push(b);
      continue;
    }
    changed = true;
    const chars = text.replace(/\s+/g, '').length;
    if (text !== '') out.push({ ...b, text, chars, linkChars: Math.min(b.linkChars, chars) });
  }
  return changed ? out : lines;
}
