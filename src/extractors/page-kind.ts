/**
 * Forum threads need a different content model (every post is content, reader comments are
 * the point, posts are short), so the extractor asks first whether a page is one. The markers
 * are those the common forum engines and schema.org put in their markup.
 */
const FORUM_MARKERS_RE = new RegExp([
  'DiscussionForumPosting', 'vBulletin', 'XenForo', 'phpBB', 'Discourse', 'Discuz', 'bbPress', 'Invision Community',
  'Simple Machines', 'MyBB', 'Vanilla Forums', 'NodeBB', 'Flarum', 'vbmenu', 'showthread\\.php', 'viewtopic\\.php',
  'class="[^"]*\\b(?:postbody|post-body|post_body|message-body|messageContent|bbWrapper|post_message|postmessage|t_msgfont|topic-body|forum-post|DiscussionBoard|threadpost|post-content)\\b',
].join('|'), 'i');

/** How far into the page the markers are looked for (engines announce themselves early). */
const SCAN_CHARS = 400_000;

export function looksLikeForum(html: string): boolean {
  return FORUM_MARKERS_RE.test(html.length > SCAN_CHARS ? html.slice(0, SCAN_CHARS) : html);
}
