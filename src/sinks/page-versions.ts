/**
 * Versioned documents (pages): a scripted upsert instead of a plain index, so the search node
 * itself decides, atomically per document, what a new crawl of a page means —
 * - first sight: the document as sent, `modified_at` = its own when the page says it, else its
 *   publication time, else when it was first seen;
 * - the same `content_signature`: nothing is written (`noop`), the page is not re-indexed;
 * - another signature: the previous text, title, signature and `modified_at` go to the front of
 *   `versions` (newest first, at most `max_versions`), the new document replaces the rest.
 * - a mark (`status: deleted | moved`): only the status and its times change; the text stays.
 *   A page seen again after a mark is live again (the mark goes, its text is kept or replaced).
 * Replays of one crawl are idempotent: the same signature is a noop.
 */
export const PAGE_VERSION_SCRIPT = [
  'def d = params.doc;',
  'def s = ctx._source;',
  // A mark (deleted, moved) changes the status of a page indexed before, nothing else.
  "if (d.status == 'deleted' || d.status == 'moved') { if (s.isEmpty() || s.status == d.status) { ctx.op = 'noop'; return; } for (def k : ['status', 'http_status', 'first_missing_at', 'deleted_at', 'moved_to']) { if (d.containsKey(k)) { s.put(k, d.get(k)); } } return; }",
  "if (s.isEmpty()) { s.putAll(d); if (s.modified_at == null) { s.modified_at = d.published_at != null ? d.published_at : d.crawled_at; } return; }",
  "if (s.content_signature != null && s.content_signature == d.content_signature && s.status == null) { ctx.op = 'noop'; return; }",
  'List versions = s.versions == null ? new ArrayList() : new ArrayList(s.versions);',
  "if (s.text != null && s.content_signature != d.content_signature) { Map v = new HashMap(); v.put('text', s.text); v.put('title', s.title); v.put('content_signature', s.content_signature); v.put('modified_at', s.modified_at); versions.add(0, v); }",
  'while (versions.size() > params.max_versions) { versions.remove(versions.size() - 1); }',
  'def firstSeen = s.first_seen_at;',
  's.clear(); s.putAll(d); s.versions = versions;',
  "if (firstSeen != null) { s.first_seen_at = firstSeen; }",
  "if (s.modified_at == null) { s.modified_at = d.crawled_at; }",
].join(' ');

/** The two bulk lines of a versioned document (without the trailing newline of the second). */
export function versionedUpdateLines(index: string, id: string, body: Record<string, unknown>, maxVersions: number): string {
  const action = { update: { _index: index, _id: id, retry_on_conflict: 3 } };
  const doc = { ...body, first_seen_at: body['first_seen_at'] ?? body['crawled_at'] };
  const update = { scripted_upsert: true, script: { lang: 'painless', source: PAGE_VERSION_SCRIPT, params: { doc, max_versions: maxVersions } }, upsert: {} };
  return `${JSON.stringify(action)}\n${JSON.stringify(update)}\n`;
}
