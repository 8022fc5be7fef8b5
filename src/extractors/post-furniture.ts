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
/** The toggle of a long quote ("Click to expand...", "Click to shrink..."). */
const QUOTE_TOGGLE_RE = /^click to (?:expand|shrink|collapse)\s*(?:\.{3}|…)?$/i;
/**
 * A thread's closing notice ("Not open for further replies.", "This topic was automatically
 * closed after 30 days. New replies are no longer allowed.", "This discussion is now closed.").
 */
const CLOSED_RE = /^(?:not open for further replies|(?:this|the) (?:topic|thread|discussion) (?:was|is|has been) (?:(?:now|automatically) )?(?:closed|locked|archived)\b(?:[^.]{0,50}\.\s*new replies are no longer allowed)?|new replies are no longer allowed)\.?$/i;
/**
 * The engine's call to sign in, printed for a visitor ("You must log in or register to comment.",
 * "You're browsing the … Message Boards as a guest. Sign Up for free (or Log In …) to be able to post").
 */
const SIGN_IN_RE = /^(?:you must (?:be )?(?:log(?:ged)? ?in|sign(?:ed)? ?in|register)\b.{0,60}\bto (?:post|reply|comment|view|see|download|join|vote|react|participate)\b|you(?:'|’)?re (?:browsing|viewing)\b.{0,80}\bas a guest\b)/i;
/**
 * A post header's label whose value the page's script fills in ("wrote on" before an empty
 * `timeago` link, NodeBB): a verb and its preposition with nothing after them.
 */
const ORPHAN_LABEL_RE = /^(?:wrote|posted|replied|commented|answered|asked|edited|updated)\s+(?:on|at|in)$/i;
/** A sign-in notice is one or two sentences. */
const MAX_SIGN_IN_CHARS = 300;
/** A profile fact is a label and a short value. */
const MAX_FACT_CHARS = 40;

export function isPostFurniture(text: string): boolean {
  const t = text.trim();
  return COUNTER_RE.test(t) || STATUS_OR_BUTTON_RE.test(t) || THREAD_STATS_RE.test(t) || MORE_BUTTON_RE.test(t) || (t.length <= MAX_FACT_CHARS && PROFILE_FACT_RE.test(t))
    || QUOTE_TOGGLE_RE.test(t) || CLOSED_RE.test(t) || ORPHAN_LABEL_RE.test(t) || (t.length <= MAX_SIGN_IN_CHARS && SIGN_IN_RE.test(t));
}

/** The label a closing notice is given as a fact of the thread ("Status" / "Not open for further replies."), above and below the posts. */
const NOTICE_LABEL_RE = /^status:?$/i;

/** A thread's lines without the per-post furniture (see above). */
export function dropPostFurniture(lines: Block[]): Block[] {
  const closed = lines.some((b) => CLOSED_RE.test(b.text.trim()));
  const kept = lines.filter((b) => !isPostFurniture(b.text) && !(closed && NOTICE_LABEL_RE.test(b.text.trim())));
  return kept.length === lines.length ? lines : kept;
}

/** Posts a line must recur in to be the template's: two could share a phrase by chance. */
const MIN_RECURRING_POSTS = 3;
/** Share of the thread's posts it must recur in: the engine prints its furniture on every post. */
const MIN_RECURRING_SHARE = 0.5;
/** A template's label, badge or button row is short; a line a poster repeats as their signature is dropped as a copy (repeats.ts). */
const MAX_RECURRING_CHARS = 60;

/** A line's text as the template writes it on every post: its counts and numbers aside ("1 Reply Last reply Reply Quote 0"). */
const templateKey = (text: string): string => text.trim().toLowerCase().replace(/\d[\d,.]*/g, '#');
/** An address spelled out: a poster's paste (the template links its buttons by their labels). */
const ADDRESS_RE = /^(?:https?:\/\/|www\.)/i;

/**
 * The furniture an engine prints on every post, whatever its wording: a short line that recurs,
 * numbers aside, in most posts of the thread ("Join Date", "View Forum Posts", "Offline",
 * "2 Replies Last reply", a rank every poster holds). Posters do not write the same line in
 * most posts of a thread; the template does. `postOf` names a line's post; `keep` are lines the
 * thread keeps whatever they repeat (each post's name and date header). A post's first line is
 * its header too, where the name of a poster who writes most of the thread recurs.
 */
export function dropRecurringLines(lines: Block[], postOf: (b: Block) => unknown, headers: ReadonlySet<Block>): Block[] {
  const postsOf = new Map<string, Set<unknown>>();
  const all = new Set<unknown>();
  const keep = new Set(headers);
  for (const b of lines) {
    const post = postOf(b);
    if (!all.has(post)) keep.add(b);
    all.add(post);
    if (b.text.length > MAX_RECURRING_CHARS || keep.has(b) || ADDRESS_RE.test(b.text.trim())) continue;
    const key = templateKey(b.text);
    let posts = postsOf.get(key);
    if (!posts) postsOf.set(key, (posts = new Set()));
    posts.add(post);
  }
  const min = Math.max(MIN_RECURRING_POSTS, MIN_RECURRING_SHARE * all.size);
  const recurring = new Set([...postsOf].filter(([, posts]) => posts.size >= min).map(([key]) => key));
  if (recurring.size === 0) return lines;
  return lines.filter((b) => keep.has(b) || b.text.length > MAX_RECURRING_CHARS || !recurring.has(templateKey(b.text)));
}
