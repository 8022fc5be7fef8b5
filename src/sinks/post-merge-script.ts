import type { DocOp } from '../core/envelope';

/**
 * Monitored posts are merged into what the index holds, never overwritten: a scripted upsert, so
 * the search node decides atomically per document (two workers writing one post retry on a
 * version conflict) in the same bulk round trip as every other document. A read-merge-write from
 * the worker would cost a multi-get round trip per batch and still race between workers unless
 * each write carried `if_seq_no` and was retried by hand; the script costs a read of the stored
 * document on the node per post, which the bulk pays once per batch. (monitor/post-merge.ts is the
 * same rule in TypeScript, for tests and simulations, without the replay guard.)
 *
 * - `post` (a post read live): first sight stores it as sent. Later, a changed `text` appends a
 *   version (the first version is the stored text, with its edit or publication time), at most
 *   `max_versions` (the original is kept, the oldest later ones go); everything else is replaced
 *   by the new read, and the post is active again (a tombstone, a pending miss, are over). A read
 *   no newer than the stored one (a replay), or older than the post's first miss, changes nothing.
 * - `seen`: a read showed it again: `last_seen_at` moves on, a pending miss or a tombstone is over.
 * - `missing`: a covering read did not show it: the earliest `first_missing_at` is kept with the
 *   count of unexplained not-found answers; only for active posts.
 * - `tombstone`: the single-post check named a reason: `status` and its bracket are set; the text,
 *   media and counts stay as last seen.
 * No op but `post` ever creates a document.
 */
export const POST_MERGE_SCRIPT = [
  'def d = params.doc; def s = ctx._source; def op = params.op;',
  "if (op == 'post') {",
  '  if (s.isEmpty()) { s.putAll(d); return; }',
  // A replay (the same read again, or an older one) changes nothing, nor does a read from before the post went missing.
  "  if (d.crawled_at != null && ((s.crawled_at != null && d.crawled_at.compareTo(s.crawled_at) <= 0) || (s.first_missing_at != null && d.crawled_at.compareTo(s.first_missing_at) < 0))) { ctx.op = 'noop'; return; }",
  '  List versions = s.versions == null ? new ArrayList() : new ArrayList(s.versions);',
  '  if (d.text != null && s.text != null && !d.text.equals(s.text)) {',
  "    if (versions.isEmpty()) { Map v0 = new HashMap(); v0.put('text', s.text); v0.put('at', s.edited_at != null ? s.edited_at : (s.created_at != null ? s.created_at : s.crawled_at)); if (s.crawled_at != null) { v0.put('seen_at', s.crawled_at); } versions.add(v0); }",
  "    Map v = new HashMap(); v.put('text', d.text); v.put('at', d.edited_at != null ? d.edited_at : d.crawled_at); if (d.crawled_at != null) { v.put('seen_at', d.crawled_at); } versions.add(v);",
  '    while (versions.size() > params.max_versions) { versions.remove(1); }',
  '  }',
  '  s.putAll(d);',
  '  if (!versions.isEmpty()) { s.versions = versions; }',
  "  for (def k : ['first_missing_at', 'status_reason', 'not_found_count', 'status_checked_at', 'lived_hours']) { s.remove(k); }",
  '  return;',
  '}',
  "if (s.isEmpty()) { ctx.op = 'noop'; return; }",
  "if (op == 'seen') {",
  "  boolean later = s.last_seen_at == null || d.last_seen_at.compareTo(s.last_seen_at) > 0;",
  "  if (!later && s.status == 'active' && s.first_missing_at == null) { ctx.op = 'noop'; return; }",
  '  if (later) { s.last_seen_at = d.last_seen_at; }',
  "  s.status = 'active';",
  "  for (def k : ['first_missing_at', 'status_reason', 'not_found_count', 'lived_hours']) { s.remove(k); }",
  '  return;',
  '}',
  "if (op == 'missing') {",
  "  if (s.status != null && s.status != 'active') { ctx.op = 'noop'; return; }",
  '  if (s.first_missing_at == null || d.first_missing_at.compareTo(s.first_missing_at) < 0) { s.first_missing_at = d.first_missing_at; }',
  '  s.not_found_count = d.not_found_count;',
  '  if (d.status_checked_at != null) { s.status_checked_at = d.status_checked_at; }',
  '  return;',
  '}',
  "if (op == 'tombstone') {",
  "  if (s.status == d.status) { ctx.op = 'noop'; return; }",
  '  s.putAll(d);',
  "  s.remove('not_found_count');",
  '  return;',
  '}',
  "ctx.op = 'noop';",
].join(' ');

/** The two bulk lines of a merged post (without the trailing newline of the second). */
export function mergedUpdateLines(index: string, id: string, body: Record<string, unknown>, op: DocOp | 'post', maxVersions: number): string {
  const action = { update: { _index: index, _id: id, retry_on_conflict: 3 } };
  const update = { scripted_upsert: true, script: { lang: 'painless', source: POST_MERGE_SCRIPT, params: { doc: body, op, max_versions: maxVersions } }, upsert: {} };
  return `${JSON.stringify(action)}\n${JSON.stringify(update)}\n`;
}
