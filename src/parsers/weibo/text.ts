export interface CleanText {
  text: string;
  hashtags: string[];
  mentions: string[];
  links: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#39);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * Post HTML to clean text: `<br>` becomes a newline, emoji images become their alt text
 * (`[哈哈]`), tags go, entities are decoded, zero-width spaces removed. Hashtags (`#话题#`),
 * mentions (`@name`) and outbound links are collected on the way. Regex-based on purpose: post
 * bodies are small, flat fragments and this is the hot path.
 */
export function postHtmlToText(html: string): CleanText {
  const links: string[] = [];
  // Each pass runs only when the character it needs is there: most posts are plain text or carry
  // one or two tags, and a regex scan per pass costs more than the test that skips it.
  const stripped = html.includes('<') ? stripTags(html, links) : html;
  let text = decodeEntities(stripped);
  if (text.includes('\u200b')) text = text.replace(/\u200b/g, '');
  if (text.includes('\n')) text = text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n');
  text = text.trim();
  const hashtags = text.includes('#') ? unique(captures(HASHTAG, text, true)) : [];
  const mentions = text.includes('@') ? unique(captures(MENTION, text, false)) : [];
  return { text, hashtags, mentions, links: unique(links) };
}

/** The tags `stripTagsInPasses` acts on besides `<…>`, each matched where a `<` stands (sticky). */
const BR_AT = /<br\s*\/?>/iy;
const IMG_AT = /<img\b[^>]*?\balt=(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/iy;
const A_AT = /<a\b[^>]*?\bhref=(?:"([^"]*)"|'([^']*)')[^>]*>/iy;

/**
 * `<br>` to a newline, emoji images to their alt text, links collected, every tag dropped, in one
 * scan from `<` to `<` (this runs on every post; a regex pass per kind of tag cost twice as much).
 * At each `<` the kinds are tried in the passes' order. The passes see the output of the passes
 * before them, so they differ from one scan only where a tag holds another `<` (markup in an alt
 * text or href, a tag inside an attribute): such posts go through the passes, which stay the
 * definition.
 */
export function stripTags(html: string, links: string[]): string {
  let out = '';
  let from = 0;
  let nested = false;
  for (let lt = html.indexOf('<'); lt !== -1;) {
    out += html.slice(from, lt);
    const c1 = html.charCodeAt(lt + 1) | 32;
    let m: RegExpExecArray | null;
    if (c1 === 98 /* b */ && ((BR_AT.lastIndex = lt), BR_AT.test(html))) {
      out += '\n';
      from = BR_AT.lastIndex;
      lt = html.indexOf('<', from);
      continue;
    }
    if (c1 === 105 /* i */ && ((IMG_AT.lastIndex = lt), (m = IMG_AT.exec(html)) !== null)) {
      if ((nested = m[0].indexOf('<', 1) !== -1)) break;
      out += m[1] ?? m[2] ?? m[3] ?? '';
      from = IMG_AT.lastIndex;
      lt = html.indexOf('<', from);
      continue;
    }
    if (c1 === 97 /* a */ && ((A_AT.lastIndex = lt), (m = A_AT.exec(html)) !== null)) {
      if ((nested = m[0].indexOf('<', 1) !== -1)) break;
      collectLink(m[1] ?? m[2] ?? '', links);
      from = A_AT.lastIndex;
      lt = html.indexOf('<', from);
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) {
      // No `>` after this `<`: no tag from here on, the rest is text.
      from = lt;
      break;
    }
    // The next `<` is either inside this tag (nested: the passes decide) or the next tag's.
    const next = html.indexOf('<', lt + 1);
    if ((nested = next !== -1 && next < gt)) break;
    from = gt + 1;
    lt = next;
  }
  if (nested) {
    links.length = 0;
    return stripTagsInPasses(html, links);
  }
  return out + html.slice(from);
}

function collectLink(rawHref: string, links: string[]): void {
  const href = decodeEntities(rawHref);
  if (/^https?:\/\//i.test(href) && !/\/(search|n)\b|weibo\.cn\/(search|p)\b/.test(href)) links.push(href);
}

/** The definition of `stripTags`: one pass per kind of tag, each over the output of the one before. */
export function stripTagsInPasses(html: string, links: string[]): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<img\b[^>]*?\balt=(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi, (_m, a?: string, b?: string, c?: string) => a ?? b ?? c ?? '')
    .replace(/<a\b[^>]*?\bhref=(?:"([^"]*)"|'([^']*)')[^>]*>/gi, (_m, a?: string, b?: string) => {
      collectLink(a ?? b ?? '', links);
      return '';
    })
    .replace(/<[^>]*>/g, '');
}

const HASHTAG = /#([^#\n]{1,64}?)#/g;
const MENTION = /@([\p{L}\p{N}_-]{1,30})/gu;

/**
 * Group 1 of every match of a global regex (trimmed, empty ones left out, when `trim`): what
 * `[...matchAll()].map().filter()` gave, without the iterator and two intermediate arrays.
 * Neither pattern matches the empty string, so exec always moves on.
 */
function captures(re: RegExp, text: string, trim: boolean): string[] {
  const out: string[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const v = trim ? m[1]!.trim() : m[1]!;
    if (v !== '') out.push(v);
  }
  return out;
}

function unique(xs: string[]): string[] {
  return xs.length < 2 ? xs : [...new Set(xs)];
}

/** `发布于 浙江` → `浙江`. */
export function parseRegion(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const r = value.replace(/^\s*发布于\s*/, '').trim();
  return r === '' ? undefined : r;
}

/** Compares decimal id strings numerically (ids exceed 2^53). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
