import type { Block } from './blocks';
import { isElement, textContent, type DomElement, type DomParent } from './dom';

/** Rows a table needs before its marks make it a grid (a two-row table is too little to judge). */
const MIN_GRID_ROWS = 3;
/** Ticks a grid cell holds instead of words. */
const TICK_RE = /[✔✓☑✅●•]/u;
/** Crosses: a table that states the noes too is a comparison the text is about (feature A vs B). */
const CROSS_RE = /[✗✘✕×❌✖]/u;
/** Lines in a row that must each end in a count for the run to be a breakdown. */
const MIN_COUNT_RUN = 4;
/** Longer than this, a line ending in "(12)" is a sentence, not a label with its count. */
const COUNT_LINE_CHARS = 60;
// A year in brackets is a date ("Median days on the market (2024)"), not a count.
const COUNT_LINE_RE = /^\D[^()]*\((?!\s*(?:19|20)\d\d\s*\))\s*\d[\d,.\s]*\)$|^\D.{0,40}\s\d{1,3}(?:[.,]\d)?\s*%$|^\d{1,3}(?:[.,]\d)?\s*%$/u;
/** A price under a currency code alone ("AUD: $232.60", "KWD: 46.060"): a run of them is a hidden currency switcher. */
const CURRENCY_LINE_RE = /^[A-Z]{3}:?\s*(?:[$€£¥₹]|[A-Z]{3}\s?)?\d[\d,]*[.,]\d{2,3}\s*(?:[A-Z]{3})?$/u;

function isTally(text: string): boolean {
  return text.length <= COUNT_LINE_CHARS && (COUNT_LINE_RE.test(text) || CURRENCY_LINE_RE.test(text));
}

function tableOf(el: DomParent): DomElement | undefined {
  for (let p: DomParent | null = el; p && isElement(p); p = p.parent) {
    if (p.name === 'table') return p;
  }
  return undefined;
}

function rowsOf(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  const walk = (el: DomElement): void => {
    for (const c of el.children) {
      if (!isElement(c) || c.name === 'table') continue;
      if (c.name === 'tr') rows.push(c);
      else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') walk(c);
    }
  };
  walk(table);
  return rows;
}

/**
 * A table whose cells after the row label hold ticks or nothing: a store page's supported
 * languages (interface / audio / subtitles ticked per language), an options checklist. Read as
 * text only the row labels remain, a list of names with the ticks lost. A grid that marks the
 * noes with crosses (a comparison of tools in an article) is kept.
 */
function isMarkGrid(table: DomElement): boolean {
  const rows = rowsOf(table).filter((r) => r.children.some((c) => isElement(c) && c.name === 'td'));
  if (rows.length < MIN_GRID_ROWS) return false;
  let marked = 0;
  let blank = 0;
  for (const row of rows) {
    const cells = row.children.filter((c): c is DomElement => isElement(c) && (c.name === 'td' || c.name === 'th'));
    if (cells.length < 2) return false;
    const rest = cells.slice(1).map((c) => textContent(c).trim());
    if (rest.some((t) => /[\p{L}\p{N}]/u.test(t) || CROSS_RE.test(t))) return false;
    if (rest.some((t) => TICK_RE.test(t))) marked++;
    blank += rest.filter((t) => t === '').length;
  }
  return blank > 0 && marked * 2 >= rows.length;
}

/**
 * The content without tallies: the rows of a grid of check marks (isMarkGrid), and runs of
 * `MIN_COUNT_RUN` or more short lines that each end in a count or a share ("Positive (8,151)",
 * "5 stars 78%", "AUD: $232.60"), a review histogram, a rating breakdown by language, a
 * price in every currency of a switcher. The product's text says what it is; the tallies are
 * controls around it.
 */
export function dropBreakdowns(lines: Block[]): Block[] {
  const grids = new Map<DomElement, boolean>();
  const drop = new Set<Block>();
  for (const b of lines) {
    const table = tableOf(b.owner);
    if (!table) continue;
    let grid = grids.get(table);
    if (grid === undefined) grids.set(table, (grid = isMarkGrid(table)));
    if (grid) drop.add(b);
  }
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && lines[j]!.heading === 0 && isTally(lines[j]!.text)) j++;
    if (j - i >= MIN_COUNT_RUN) for (let k = i; k < j; k++) drop.add(lines[k]!);
    i = j > i ? j : i + 1;
  }
  return drop.size ? lines.filter((b) => !drop.has(b)) : lines;
}
