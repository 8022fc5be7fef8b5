import { isBoilerplate, type Block } from './blocks';
import { findFirst, type DomElement, type DomParent } from './dom';

/**
 * Longest cell line taken back into a table: a data table's cells are labels and values (a
 * product's "Case Material | ABS", a fee schedule's figures), where a layout table's cells hold
 * whole columns of a page.
 */
const MAX_CELL_CHARS = 80;
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
  const added: Block[] = [];
  for (const b of blocks) {
    if (taken.has(b) || b.chars > MAX_CELL_CHARS || b.linkChars * 2 > b.chars || b.classScore < 0 || b.furniture || b.inComments) continue;
    const t = tableOf(b.owner);
    if (t && tables.has(t) && !isBoilerplate(b)) added.push(b);
  }
  if (added.length === 0) return chosen;
  return [...chosen, ...added].sort((a, b) => a.index - b.index);
}
