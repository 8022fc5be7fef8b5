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
  const hashtags = text.includes('#') ? unique([...text.matchAll(/#([^#\n]{1,64}?)#/g)].map((m) => m[1]!.trim()).filter(Boolean)) : [];
  const mentions = text.includes('@') ? unique([...text.matchAll(/@([\p{L}\p{N}_-]{1,30})/gu)].map((m) => m[1]!)) : [];
  return { text, hashtags, mentions, links: unique(links) };
}

/** `<br>` to a newline, emoji images to their alt text, links collected, every tag dropped. */
function stripTags(html: string, links: string[]): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<img\b[^>]*?\balt=(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi, (_m, a?: string, b?: string, c?: string) => a ?? b ?? c ?? '')
    .replace(/<a\b[^>]*?\bhref=(?:"([^"]*)"|'([^']*)')[^>]*>/gi, (_m, a?: string, b?: string) => {
      const href = decodeEntities(a ?? b ?? '');
      if (/^https?:\/\//i.test(href) && !/\/(search|n)\b|weibo\.cn\/(search|p)\b/.test(href)) links.push(href);
      return '';
    })
    .replace(/<[^>]*>/g, '');
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
