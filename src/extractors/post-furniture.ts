import type { Block } from './blocks';

/**
 * The furniture an engine prints on every post of a thread, line by line: the poster's counters
 * and profile facts ("1,430 posts", "Registered: 2025-11-01"), their status ("Offline"), the
 * post's reaction count ("2 Likes", "(11 children)") and its buttons ("Reply", "Quote",
 * "permalink"), and the thread's own tallies and "more replies" buttons. Each line is the whole of it; a sentence that mentions posts or replies is text.
 */
const COUNTER_RE = /^\(?[\d,.]+k?\s+(?:posts?|messages?|likes?|reactions?|points?|repl(?:y|ies)|children|child|helpful votes?)\)?$/i;
const PROFILE_FACT_RE = /^(?:registered|joined|join date|member since|posts|messages|reputation|karma|reactions|reaction score)\s*:/i;
const STATUS_OR_BUTTON_RE = /^(?:offline|online|logged|website|quote|report|reply|share|permalink|like)$/i;
/**
 * A thread's tallies on one line, two counters or more ("6.3K views 23 replies 14 participants
 * last post by ggery"), the header a thread page repeats from the topic list.
 */
const THREAD_STATS_RE = /^(?:[\d.,]+\s?[km]?\s+(?:views?|repl(?:y|ies)|participants?|posts?|members?|users?|likes?|votes?|comments?)\b[\s·•|,]*){2,}/i;
/** The button that opens a folded branch of a thread ("Show more replies", "Load 3 more comments"). */
const MORE_BUTTON_RE = /^(?:show|load|view|see)\s+(?:\d+\s+)?(?:more|all|previous|older|earlier)\s+(?:\d+\s+)?(?:repl(?:y|ies)|comments?|posts?|answers?)$/i;
/** A profile fact is a label and a short value. */
const MAX_FACT_CHARS = 40;

export function isPostFurniture(text: string): boolean {
  const t = text.trim();
  return COUNTER_RE.test(t) || STATUS_OR_BUTTON_RE.test(t) || THREAD_STATS_RE.test(t) || MORE_BUTTON_RE.test(t) || (t.length <= MAX_FACT_CHARS && PROFILE_FACT_RE.test(t));
}

/** A thread's lines without the per-post furniture (see above). */
export function dropPostFurniture(lines: Block[]): Block[] {
  const kept = lines.filter((b) => !isPostFurniture(b.text));
  return kept.length === lines.length ? lines : kept;
}
