import type { Block, FurnitureMark } from './blocks';
import { isConsentPlatform, isHiddenOnDesktops, isHiddenOnPhones } from './clean';
import type { DomElement } from './dom';
import { effectiveLength, linkRatio, type ScoringParams } from './scoring';

/**
 * Boilerplate judged by structure, not by a single class word. A class or id word (`sidebar`,
 * `hidden`, `share`, `skip`…) says an element is furniture; but layout wrappers carry such words
 * too (a sticky-sidebar plugin's `<div class="sidebar-wrapper">` around the main column, a
 * `no-sidebar` body div, Tailwind's `overflow-hidden`, a root `hide` that a script lifts). The
 * difference is what the element holds: furniture is a minority of the page's text, while the
 * wrapper holds most of it. A marked element holding more than `maxFurnitureShare` of the
 * page's positive line value is therefore a wrapper: its word is ignored, provided it holds the
 * headline too (when the page has one): a cookie notice or a sidebar of teasers can outweigh a
 * short article, but never holds its headline. Only where the furniture words reach the headline
 * itself (a Drupal layout that calls every column `sidebar-first-only`) are they the layout's
 * vocabulary, and a non-hidden element need not hold it.
 */
export interface LayoutParams {
  maxFurnitureShare: number;
}

export const DEFAULT_LAYOUT: LayoutParams = { maxFurnitureShare: 0.5 };

/** A line's value before any class word: what it holds, whatever its ancestors are called. */
function plainValue(b: Block, p: ScoringParams): number {
  return effectiveLength(b, p) + p.punctWeight * b.punct * (1 - linkRatio(b)) - p.threshold;
}

export interface JudgedLines {
  /** The lines kept (class-hidden elements that are not wrappers removed), re-indexed. */
  blocks: Block[];
  /** Elements whose furniture word was overruled: selection treats them as neutral. */
  wrappers: Set<DomElement>;
  /** Hidden panels alike that hold the page's text between them (see hiddenPanels): sibling-panels.ts reads them as the panels of one switcher. */
  panels: Set<DomElement>;
}

export function judgeFurniture(lines: Block[], scoring: ScoringParams, headline?: Block, params: LayoutParams = DEFAULT_LAYOUT): JudgedLines {
  const wrappers = new Set<DomElement>();
  const panels = new Set<DomElement>();
  if (!lines.some((b) => b.furniture)) return { blocks: lines, wrappers, panels };
  let total = 0;
  // Marks with a line of their own outside list items: a wrapper holds a column of headings and
  // paragraphs, where a block of footnotes is one list.
  const beyondList = new Set<FurnitureMark>();
  for (const b of lines) {
    if (!b.inList) for (let m: FurnitureMark | null = b.furniture; m && !beyondList.has(m); m = m.up) beyondList.add(m);
    const v = plainValue(b, scoring);
    if (v <= 0) continue;
    total += v;
    for (let m: FurnitureMark | null = b.furniture; m; m = m.up) m.mass += v;
  }
  const limit = params.maxFurnitureShare * total;
  const holdsHeadline = new Set<FurnitureMark>();
  for (let m = headline?.furniture ?? null; m; m = m.up) holdsHeadline.add(m);
  // Sibling sections that share a furniture word (every <div class="skip-item"> of a guide)
  // are judged together: what they hold between them is the page.
  const siblings = new Map<string, { mass: number; count: number; headline: boolean }>();
  const siblingKey = (m: FurnitureMark): string => `${m.hidden ? 'h' : 'w'}${m.el.attribs.class ?? ''}`;
  const parentIds = new Map<DomElement['parent'], number>();
  const keyOf = (m: FurnitureMark): string => {
    let id = parentIds.get(m.el.parent);
    if (id === undefined) parentIds.set(m.el.parent, (id = parentIds.size));
    return `${id}:${siblingKey(m)}`;
  };
  const counted = new Set<FurnitureMark>();
  for (const b of lines) {
    for (let m: FurnitureMark | null = b.furniture; m; m = m.up) {
      if (counted.has(m)) continue;
      counted.add(m);
      const sib = siblings.get(keyOf(m));
      if (sib) {
        sib.mass += m.mass;
        sib.count++;
        sib.headline ||= holdsHeadline.has(m);
      } else {
        siblings.set(keyOf(m), { mass: m.mass, count: 1, headline: holdsHeadline.has(m) });
      }
    }
  }
  // A furniture word that also sits above the headline is the layout's vocabulary, not a verdict.
  const wordAboveHeadline = headline?.furniture != null;
  // A run of three or more sibling sections is a body of sections: a sidebar or a notice is one
  // element, and a list's items (footnotes) are no sections.
  const sectionRun = (m: FurnitureMark): boolean => {
    const sib = siblings.get(keyOf(m))!;
    return !m.hidden && sib.count >= 3 && sib.mass > limit && beyondList.has(m);
  };
  // Hidden panels alike under one parent (the detail panes a home page opens one at a time, the
  // panes of a tab set) that hold most of the page between them are its text, judged together as
  // one hidden wrapper would be: each alone may hold less than half, and only the biggest would stay.
  const hiddenPanels = (m: FurnitureMark): boolean => {
    const sib = siblings.get(keyOf(m))!;
    return m.hidden && sib.count >= 2 && sib.mass > limit && (headline === undefined || sib.headline);
  };
  // What hides inside such a panel (its body's `row hide`) opens with it.
  const inHiddenPanels = (m: FurnitureMark): boolean => {
    for (let u: FurnitureMark | null = m; u; u = u.up) if (hiddenPanels(u)) return true;
    return false;
  };
  // A block hidden on phones is a side column, unless the page hides from desktops a block of at
  // least half its value: then it is the desktop copy of a text the phones get in that block.
  let phonesCopyMass = 0;
  // (A block hidden on both is shown nowhere: no copy of anything.)
  for (const m of counted) if (!m.hidden && m.mass > phonesCopyMass && isHiddenOnDesktops(m.el) && !isHiddenOnPhones(m.el)) phonesCopyMass = m.mass;
  const desktopCopy = (m: FurnitureMark): boolean => !m.hidden && m.mass > 0 && phonesCopyMass >= m.mass / 2 && isHiddenOnPhones(m.el) && !isHiddenOnDesktops(m.el);
  const isWrapper = (m: FurnitureMark): boolean => total > 0 && !(m.hidden && isConsentPlatform(m.el)) && (sectionRun(m) || desktopCopy(m) || (m.hidden && inHiddenPanels(m))
    || (m.mass > limit && (holdsHeadline.has(m) || ((headline === undefined || (!m.hidden && wordAboveHeadline)) && beyondList.has(m)))));
  const out: Block[] = [];
  for (const b of lines) {
    let hidden = false;
    for (let m: FurnitureMark | null = b.furniture; m; m = m.up) {
      if (isWrapper(m)) {
        wrappers.add(m.el);
        if (hiddenPanels(m)) panels.add(m.el);
        // The walk counted the word into classScore; a wrapper's word does not count.
        b.classScore -= m.weight;
      } else if (m.hidden) {
        hidden = true;
      }
    }
    if (hidden) continue;
    b.index = out.length;
    out.push(b);
  }
  return { blocks: out, wrappers, panels };
}
