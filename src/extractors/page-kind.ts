/**
 * Forum threads need a different content model (every post is content, reader comments are
 * the point, posts are short), so the extractor asks first whether a page is one. The markers
 * are those the common forum engines and schema.org put in their markup.
 */
const FORUM_MARKERS_RE = new RegExp([
  'DiscussionForumPosting', 'content="(?:vBulletin|XenForo|phpBB|Discourse|Discuz|bbPress|Invision|MyBB|Simple Machines|NodeBB|Flarum|Vanilla)',
  'discourse_theme_id', 'id="XF"', 'data-template="thread_view"', 'vbmenu_', 'showthread\\.php', 'viewtopic\\.php',
  'class="[^"]*\\b(?:postbody|message-body|messageContent|bbWrapper|post_message|postmessage|t_msgfont|topic-body|DiscussionBoard|threadpost|cPost)\\b',
].join('|'));

/** How far into the page the markers are looked for (engines announce themselves early). */
export const FORUM_SCAN_CHARS = 400_000;

/** Thread URLs of the common engines and forum host names (forum., bbs., community.…). */
const FORUM_URL_RE = /^https?:\/\/(?:forums?|bbs|community|discuss|discussions?|boards?)\.|\/(?:forums?|threads?|topics?|t|showthread\.php|viewtopic\.php|discussions?|thread-\d+|ShowTopic-)[/?-]/i;

/**
 * Vote buttons: a discussion site (Reddit, Lemmy, a link aggregator) puts one pair on every
 * comment, and its comments are the page's content. An article's comment widget or a product's
 * review list has a handful.
 */
const VOTE_RE = /upvote|downvote/gi;
const MIN_VOTE_MARKS = 40;

function manyVotes(html: string): boolean {
  VOTE_RE.lastIndex = 0;
  let n = 0;
  while (VOTE_RE.exec(html)) if (++n >= MIN_VOTE_MARKS) return true;
  return false;
}

export function looksLikeForum(html: string, url?: string): boolean {
  return forumEvidence(html, url) !== undefined;
}

/**
 * What says a page is a forum thread: its markup (a forum engine's or schema.org's markers, a
 * discussion site's vote buttons), else its URL alone (a thread path or a forum host name), else
 * nothing. A page that is a forum by its URL alone may be a magazine's "forum" section: an
 * article-like question whose answers are a blog's comment widget.
 */
export function forumEvidence(html: string, url?: string): 'markup' | 'url' | undefined {
  const head = html.length > FORUM_SCAN_CHARS ? html.slice(0, FORUM_SCAN_CHARS) : html;
  if (FORUM_MARKERS_RE.test(head) || manyVotes(head)) return 'markup';
  return url && FORUM_URL_RE.test(url) ? 'url' : undefined;
}
