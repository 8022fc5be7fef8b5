import { isBoilerplate, type Block } from './blocks';
import { findFirst, type DomElement, type DomParent } from './dom';

/**
 * Longest cell line taken back into a table: a data table's cells are labels and values (a
 * product's "Case Material | ABS", a fee schedule's figures), where a layout table's cells hold
 * whole columns of a page.
 */
const MAX_CELL_CHARS = 80;
const LETTER_RE = /\p{L}/u;
/**
 * Columns of a table of figures read as the text's data (a series: date and value, a year and
 * three measures); a wider grid of figures is a board of tallies (a league's standings: W, L,
 * PCT, GB, HOME, AWAY…).
 */
const MAX_FIGURE_COLUMNS = 6;
/** A table with a longer line anywhere is a layout table: the page's text laid out in cells. */
const MAX_DATA_LINE_CHARS = 200;

/** Whether a table holds another table: a layout table (an old site's page grid), not a data table. */
const holdsTable = (t: DomElement): boolean => findFirst(t, (el) => el.name === 'table') !== undefined;

/** The nearest <table> above an element, if any. */
function tableOf(n: DomParent): DomElement | undefined {
  for (let e: DomParent | null = n; e && e.type === 'tag'; e = (e as DomElement).parent) if ((e as DomElement).name === 'table') return e as DomElement;
  return undefined;
}

/**
 * A table the content enters is read whole. Scoring cuts a table of short cells where a run of
 * them sums below zero (a specifications table under a product's description keeps its first
 * row: "Driver Material | Polymer", and loses "Foam | EVA", "Case Material | ABS"…), but a table
 * is one unit of the text: its rows say nothing apart. Only short cells, not mostly links, and
 * no furniture: a table of links (a navigation grid) or of long cells (a layout table) is not
 * taken back; nor is a layout table (one holding a table, or a line of running text).
 */
export function withWholeTables(blocks: Block[], chosen: Block[]): Block[] {
  const tables = new Set<DomElement>();
  for (const b of chosen) {
    const t = tableOf(b.owner);
    if (t) tables.add(t);
  }
  if (tables.size === 0) return chosen;
  for (const b of blocks) {
    if (b.chars <= MAX_DATA_LINE_CHARS) continue;
    const t = tableOf(b.owner);
    if (t) tables.delete(t);
  }
  for (const t of tables) if (holdsTable(t)) tables.delete(t);
  if (tables.size === 0) return chosen;
  const taken = new Set(chosen);
  const inFlow = tablesInFlow(blocks, chosen, tables);
  const added: Block[] = [];
  for (const b of blocks) {
    if (taken.has(b) || b.chars > MAX_CELL_CHARS || b.linkChars * 2 > b.chars || b.classScore < 0 || b.furniture || b.inComments) continue;
    const t = tableOf(b.owner);
    // A cell of figures alone ("+13.1%", "1/1/2013") in a table the text runs on after is a data
    // table's value, whatever a line of figures elsewhere (a counter, a dateline) is; a table of
    // figures that ends the content (a league's standings beside the teams it lists) is a tally.
    if (t && tables.has(t) && (!isBoilerplate(b) || (inFlow.has(t) && !LETTER_RE.test(b.text)))) added.push(b);
  }
  if (added.length === 0) return chosen;
  return [...chosen, ...added].sort((a, b) => a.index - b.index);
}

/** Cells in a table's widest row. */
function columns(t: DomElement): number {
  let most = 0;
  const walk = (el: DomElement): void => {
    for (const c of el.children) {
      if (c.type !== 'tag') continue;
      const e = c as DomElement;
      if (e.name === 'table') continue;
      if (e.name === 'tr') most = Math.max(most, e.children.filter((x) => x.type === 'tag' && ((x as DomElement).name === 'td' || (x as DomElement).name === 'th')).length);
      else walk(e);
    }
  };
  walk(t);
  return most;
}

/** The tables the content both enters before and goes on after: tables in the flow of the text. */
function tablesInFlow(blocks: Block[], chosen: Block[], tables: ReadonlySet<DomElement>): Set<DomElement> {
  const firstLast = new Map<DomElement, [number, number]>();
  for (const b of blocks) {
    const t = tableOf(b.owner);
    if (!t || !tables.has(t)) continue;
    const span = firstLast.get(t);
    if (span) span[1] = b.index;
    else firstLast.set(t, [b.index, b.index]);
  }
  const outside = chosen.filter((b) => tableOf(b.owner) === undefined);
  const flow = new Set<DomElement>();
  for (const [t, [first, last]] of firstLast) {
    if (columns(t) <= MAX_FIGURE_COLUMNS && outside.some((b) => b.index < first) && outside.some((b) => b.index > last)) flow.add(t);
  }
  return flow;
}
