/**
 * A Weibo topic tag (`#城市图书馆新馆#`) names what a post is about, and posts of a topic repeat the
 * name in their text (`图书馆新馆，…`). Leaving out the tag alone still lets the model read the
 * repeat, and a name's n-grams carry whatever polarity training posts about similar names had
 * into every post of a new topic: one shared push on all its posts, which moves the topic's whole
 * mix. Pieces shorter than `ECHO_MIN_CHARS` stay: two characters are mostly ordinary words, and
 * an opinion word that spreads with a topic (失望) is how its posts feel.
 */
export const ECHO_MIN_CHARS = 3;

const ZH_TAG_RE = /#([^#\n]{1,40})#/g;

/** `text` with its tags and every run of `minChars` or more characters that is part of one of its tags replaced by a space each (longest first, left to right). */
export function withoutTagEchoes(text: string, minChars = ECHO_MIN_CHARS): string {
  if (!text.includes('#')) return text;
  const tags = [...text.matchAll(ZH_TAG_RE)].map((m) => m[1]!);
  const body = text.replace(ZH_TAG_RE, ' ');
  if (tags.length === 0) return body;
  // Every piece of a tag of minChars or more, by length: a tag is at most 40 characters.
  const pieces = new Set<string>();
  let longest = 0;
  for (const t of tags) {
    for (let i = 0; i + minChars <= t.length; i++) {
      for (let j = i + minChars; j <= t.length; j++) pieces.add(t.slice(i, j));
    }
    longest = Math.max(longest, t.length);
  }
  let out = '';
  for (let i = 0; i < body.length;) {
    let hit = 0;
    // Most positions start no piece: one lookup of the shortest rules them out (the hot path).
    if (pieces.has(body.slice(i, i + minChars))) for (let len = Math.min(longest, body.length - i); len >= minChars; len--) {
      if (pieces.has(body.slice(i, i + len))) { hit = len; break; }
    }
    if (hit > 0) { out += ' '; i += hit; } else out += body[i++];
  }
  return out;
}
