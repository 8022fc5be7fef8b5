import type { Block } from './blocks';
import { isProse } from './second-opinion';

/**
 * An article starts at its headline: lines the chosen content holds above the headline's own
 * element are what the template puts over the story (a kicker, a gallery's slides, a date
 * strip), whatever their classes. Only the headline itself, not a line repeating its words: a
 * gallery's modal repeats them in the middle of the story. Cut only where nothing above is
 * running text and the headline leads the larger part of the text: a title matched to a
 * section's heading (a chapter named like the page) comes after the page's own introduction.
 */
export function cutAboveHeadline(chosen: Block[], head: Block | undefined): Block[] {
  if (!head) return chosen;
  const at = chosen.indexOf(head);
  if (at <= 0) return chosen;
  let above = 0;
  let below = 0;
  for (let i = 0; i < chosen.length; i++) {
    if (i < at && isProse(chosen[i]!)) return chosen;
    if (i < at) above += chosen[i]!.chars;
    else below += chosen[i]!.chars;
  }
  return 2 * above < below ? chosen.slice(at) : chosen;
}
