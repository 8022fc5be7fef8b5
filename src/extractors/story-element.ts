import type { Block } from './blocks';
import { isAncestorOf, isElement, type DomElement } from './dom';

/** Share of the chosen text the story's element must hold to be taken as the story. */
const MIN_STORY_SHARE = 2 / 3;

/**
 * The chosen lines without those that follow the story's own element: the lowest element
 * around the headline (below <body>) that holds most of the chosen text, an <article> or
 * <main> or whatever <div> the template wraps its story in. What comes after it (the site's
 * footer with its legal lines and address, a sign-up box) is the page's, not the story's,
 * whatever the classes say: the page's nesting is its own statement of where the story ends.
 * Lines before it stay (a standfirst or a lead image's caption may sit above a wrapper of the body only).
 */
export function cutAfterStory(chosen: Block[], head: Block | undefined): Block[] {
  if (!head || chosen.length < 2) return chosen;
  const total = chosen.reduce((n, b) => n + b.chars, 0);
  for (let p = head.owner.parent ? head.owner : null; p; p = p.parent) {
    if (!isElement(p) || p.name === 'body' || p.name === 'html') continue;
    const story = p as DomElement;
    let inside = 0;
    let last = -1;
    chosen.forEach((b, i) => {
      if (!isAncestorOf(story, b.owner)) return;
      inside += b.chars;
      last = i;
    });
    if (inside < MIN_STORY_SHARE * total) continue;
    return last === chosen.length - 1 ? chosen : chosen.filter((b, i) => i <= last || isAncestorOf(story, b.owner));
  }
  return chosen;
}
