import { LABEL_RE } from './bylines';

/** Lines from either end of the text where a byline or an author box stands. */
const EDGE_LINES = 3;
/** Words a byline may add to the name: an agency or a paper ("Associated Press", "Sioux Falls Argus Leader"), "About". */
const MAX_EXTRA_WORDS = 4;
/** Lines of an author box under its name line, at most (a bio, a "reach her at" line). */
const MAX_BOX_LINES = 2;
/** Comma-separated parts of a byline: two names, or a name and the agency. */
const MAX_BYLINE_PARTS = 2;
/** A sentence ends the line: the name line of a byline or an author box has none. */
const SENTENCE_END_RE = /[.!?]["'”’)]?$/;

const words = (s: string): string[] => s.split(/[\s,]+/).filter(Boolean);

/** What follows a name that is the subject of a bio ("Phil Helsel is a reporter", "Amit Samsukha, CTO at…"). */
const BIO_VERB_RE = /^(?:,|\s+(?:is|was|has|had|works|worked|writes|wrote|leads|led|holds|joined|brings|serves|served|began|started|earned|covers|lives)\b)/i;
/** Label, name or role lines above a bio (no sentence of their own), looked back over at most. */
const MAX_BOX_HEAD_LINES = 3;
/** Words of such a line at most ("Senior Principal Software Engineer, Docker"). */
const MAX_BOX_HEAD_WORDS = 8;

/**
 * Whether a paragraph introduces the author in the third person, as the box after a piece does
 * whatever it is called ("Bhaval Patel is a Director…", "Rasmus is the founder of…",
 * "Amit Samsukha, CTO at…"): a person's name (or its first name) as the subject of its first
 * sentence. A piece does not end by presenting its own writer.
 */
function opensBio(line: string, author: string): boolean {
  if (!SENTENCE_END_RE.test(line) || !isPersonName(author)) return false;
  const l = line.toLowerCase();
  const full = author.toLowerCase();
  const first = words(full)[0] ?? '';
  const names = first.length >= 3 ? [full, first] : [full];
  return names.some((name) => l.startsWith(name) && BIO_VERB_RE.test(l.slice(name.length)));
}

/** Words of a person's name ("Dr. Ehsan Jazini", "Mary Marlowe Leverette"). */
const MIN_NAME_WORDS = 2;
const MAX_NAME_WORDS = 4;
/** A capitalised word of a name ("Jazini", "O'Neil", "Dr."), or an initial ("J."): not an acronym ("QCY"). */
const NAME_WORD_RE = /^\p{Lu}(?:\p{Ll}[\p{Ll}'’.-]*|\.)$/u;

/**
 * Whether the author reads as a person's name: a brand or a desk that writes its own pages
 * ("Budlong", "QCY Official") ends a piece by saying what it does ("Budlong is dedicated to…"),
 * which is the piece's own text.
 */
function isPersonName(author: string): boolean {
  const ws = words(author);
  return ws.length >= MIN_NAME_WORDS && ws.length <= MAX_NAME_WORDS && ws.every((w) => NAME_WORD_RE.test(w));
}

/** The first index of the box around a bio at `i`: the short label, name and role lines right above it. */
function boxStart(paragraphs: string[], i: number, floor: number): number {
  let k = i;
  while (k - 1 >= floor && i - (k - 1) <= MAX_BOX_HEAD_LINES) {
    const prev = paragraphs[k - 1]!;
    if (SENTENCE_END_RE.test(prev) || words(prev).length > MAX_BOX_HEAD_WORDS) break;
    k--;
  }
  return k;
}

/**
 * Whether a line names the author and nothing else a reader reads: the byline ("Sarah E.
 * Needleman", "Tom Davies Associated Press", "By Reuters") or the name heading an author box
 * ("About Moritz Bachmann"). A name line holds no sentence and few words beside the name.
 */
function namesAuthor(line: string, author: string): boolean {
  if (SENTENCE_END_RE.test(line)) return false;
  const l = line.toLowerCase();
  const a = author.toLowerCase();
  if (!l.includes(a) && !a.includes(l)) return false;
  // Beside the name one more part at most (an agency, "About"): more names are a list of authors (a paper's), not a byline.
  const rest = l.replace(a, ' ').split(/,|\s(?:and|&)\s/).filter((part) => part.trim() !== '');
  return rest.length <= 1 && words(line).length <= words(author).length + MAX_EXTRA_WORDS;
}

/**
 * The text without the author's byline and box, told by the author's name the page states
 * (metadata or the byline found near the headline) rather than by their classes: near the top,
 * a line that is the name (and a "By" label line before it); near the end, a name line and the
 * short box under it (a one-line bio, "Phil Helsel is a reporter for NBC News."). The
 * references leave bylines and author boxes out. Latin-script names only: a Chinese dateline
 * ("記者陳鈞凱／台北報導") is a line of the story in its references.
 */
export function dropAuthorEchoes(paragraphs: string[], author: string | undefined): string[] {
  if (!author || author.length < 4 || !/^[\p{Script=Latin}\s.,'’&-]+$/u.test(author)) return paragraphs;
  // Three or more names in a row are a paper's or a card's list of authors, a line of the item.
  if (author.split(',').length > MAX_BYLINE_PARTS) return paragraphs;
  const drop = new Set<number>();
  const n = paragraphs.length;
  for (let i = 0; i < Math.min(EDGE_LINES, n); i++) {
    if (!namesAuthor(paragraphs[i]!, author)) continue;
    drop.add(i);
    if (i > 0 && LABEL_RE.test(paragraphs[i - 1]!)) drop.add(i - 1);
  }
  for (let i = Math.max(EDGE_LINES, n - EDGE_LINES); i < n; i++) {
    if (n - 1 - i > MAX_BOX_LINES) continue;
    // A name line heads the box; a bio that opens with the name is the box, with its labels above it.
    const from = namesAuthor(paragraphs[i]!, author) ? i : opensBio(paragraphs[i]!, author) ? boxStart(paragraphs, i, EDGE_LINES) : -1;
    if (from < 0) continue;
    for (let j = from; j < n; j++) drop.add(j);
    break;
  }
  return drop.size === 0 ? paragraphs : paragraphs.filter((_, i) => !drop.has(i));
}
