/**
 * What a page's script data objects say about the piece where its markup says nothing: a tag
 * manager's data layer carries the post's author for analytics (WordPress's GTM plugin writes
 * `"pagePostAuthor":"Krystyna"` on every post), whatever the theme shows.
 */

/** `"pagePostAuthor":"Ana Ruiz"`, `'postAuthor': 'Ana Ruiz'`, `"author_name":"Ana Ruiz"`. */
const DATA_AUTHOR_RE = /["'](?:pagePostAuthor|postAuthor|post_author_name|author_name|authorName)["']\s*:\s*["']([^"'\\<>]{2,60})["']/;

/** The author a data object of the page names (the first one, in page order). */
export function dataObjectAuthor(source: string): string | undefined {
  const name = DATA_AUTHOR_RE.exec(source)?.[1]?.trim();
  return name && /\p{L}/u.test(name) ? name : undefined;
}
