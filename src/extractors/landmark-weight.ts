import type { Block } from './blocks';
import type { DomParent } from './dom';
import { mainLandmark } from './main-landmark';

/**
 * The `<main>` landmark (or `role="main"`) standing in for content-like class words where a
 * page has none. Lines under a class word that names content (`article-body`, `post-content`)
 * score higher (scoring.ts contentFactor); a template whose class names say nothing (hashed CSS
 * modules, utility classes) loses that lift, and a service page's short sections then fall
 * apart into separate runs where the segment model keeps only the densest. The landmark says
 * the same by its definition (the page's main content), so on a page where no line sits under a
 * content word, the lines inside it are scored as if one did. A page with any content word keeps
 * its words: they are the more specific, and the landmark often wraps the whole page.
 * Returns the lines given a lift (the blocks are updated in place).
 */
export function liftMainLandmark(blocks: Block[]): number {
  if (blocks.some((b) => b.classScore > 0)) return 0;
  // Owners repeat over consecutive lines: each is looked up once.
  const inMain = new Map<DomParent, boolean>();
  let lifted = 0;
  for (const b of blocks) {
    if (b.classScore !== 0) continue;
    let hit = inMain.get(b.owner);
    if (hit === undefined) {
      hit = mainLandmark(b.owner) !== undefined;
      inMain.set(b.owner, hit);
    }
    if (hit) {
      b.classScore = 1;
      lifted++;
    }
  }
  return lifted;
}
