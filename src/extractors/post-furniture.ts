import type { Block } from './blocks';

/**
 * The furniture an engine prints on every post of a thread, line by line: the poster's counters
 * and profile facts ("1,430 posts", "Registered: 2025-11-01"), their status ("Offline"), the
 * post's reaction count ("2 Likes", "(11 children)") and its buttons ("Reply", "Quote",
 * "permalink"). Each line is the whole of it; a sentence that mentions posts or replies is text.
 */
const COUNTER_RE = /^\(?[\d,.]+k?\s+(?:posts?|messages?|likes?|reactions?|points?|repl(?:y|ies)|children|child|helpful votes?)\)?$/i;
const PROFILE_FACT_RE = /^(?:registered|joined|join date|member since|posts|messages|reputation|karma)\s*:/i;
const STATUS_OR_BUTTON_RE = /^(?:offline|online|logged|website|quote|report|reply|share|permalink|like)$/i;
/** A profile fact is a label and a short value. */
const MAX_FACT_CHARS = 40;

export function isPostFurniture(text: string): boolean {
  const t = text.trim();
  return COUNTER_RE.test(t) || STATUS_OR_BUTTON_RE.test(t) || (t.length <= MAX_FACT_CHARS && PROFILE_FACT_RE.test(t));
}

/** A thread's lines without the per-post furniture (see above). */
export function dropPostFurniture(lines: Block[]): Block[] {
  const kept = lines.filter((b) => !isPostFurniture(b.text));
  return kept.length === lines.length ? lines : kept;
}
