import iconv from 'iconv-lite';

/** Where the charset used to decode a page came from. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'detected' | 'default';

export interface DecodedHtml {
  text: string;
  /** Canonical lower-case name, e.g. `utf-8`, `gb18030`, `windows-1252`. */
  charset: string;
  source: CharsetSource;
}

/** How far into the bytes a `<meta charset>` is looked for (the spec's prescan is 1 KiB; real pages put it later). */
const META_SCAN_BYTES = 4096;

/**
 * WHATWG-style aliases. GB2312 and GBK pages routinely contain GBK-only characters, so every
 * member of the family decodes as GB18030 (a strict superset); ISO-8859-1 means windows-1252.
 */
const ALIASES: Record<string, string> = {
  utf8: 'utf-8', 'utf-8': 'utf-8', 'unicode-1-1-utf-8': 'utf-8',
  gb2312: 'gb18030', gbk: 'gb18030', 'x-gbk': 'gb18030', gb18030: 'gb18030', 'gb_2312-80': 'gb18030',
  'csgb2312': 'gb18030', 'chinese': 'gb18030', 'iso-ir-58': 'gb18030', cp936: 'gb18030', 'windows-936': 'gb18030',
  big5: 'big5', 'big5-hkscs': 'big5', 'x-x-big5': 'big5', cp950: 'big5',
  'iso-8859-1': 'windows-1252', latin1: 'windows-1252', 'us-ascii': 'windows-1252', ascii: 'windows-1252',
  'windows-1252': 'windows-1252', cp1252: 'windows-1252',
  'shift_jis': 'shift_jis', 'shift-jis': 'shift_jis', sjis: 'shift_jis', 'x-sjis': 'shift_jis',
  'euc-jp': 'euc-jp', 'euc-kr': 'euc-kr', 'ks_c_5601-1987': 'euc-kr',
};

/** Canonical charset name for a label, or undefined when neither we nor iconv-lite know it. */
export function normalizeCharset(label: string): string | undefined {
  const key = label.trim().toLowerCase().replace(/^["']|["']$/g, '');
  if (!key) return undefined;
  const alias = ALIASES[key];
  if (alias) return alias;
  return iconv.encodingExists(key) ? key : undefined;
}

/** The charset parameter of a Content-Type header value. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType);
  return m?.[1] ? normalizeCharset(m[1]) : undefined;
}

/** `<meta charset=…>` or `<meta http-equiv="Content-Type" content="…charset=…">` near the top. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  // latin1 keeps one char per byte, so the ASCII markup survives whatever the real encoding is.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SCAN_BYTES)).toString('latin1');
  const metaRe = /<meta\b[^>]*>/gi;
  for (let m = metaRe.exec(head); m; m = metaRe.exec(head)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag);
    if (direct?.[1]) {
      const cs = normalizeCharset(direct[1]);
      if (cs) return cs;
    }
  }
  return undefined;
}

function bomCharset(bytes: Uint8Array): { charset: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return undefined;
}

function hasHighBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

/** The text when the bytes are strictly valid UTF-8 (the native decoder throws on the first malformed sequence). */
/**
 * The text if the bytes are UTF-8. `truncatedTail` accepts a sequence cut off at the very end (a
 * body cut short mid-character is still UTF-8; taken for invalid, detection would read the whole
 * page as GB18030 mojibake); the partial character is dropped.
 */
function strictUtf8(bytes: Uint8Array, truncatedTail = false): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncatedTail });
  } catch {
    return undefined;
  }
}

export function isValidUtf8(bytes: Uint8Array): boolean {
  return strictUtf8(bytes) !== undefined;
}

function decodeWith(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8') return new TextDecoder('utf-8').decode(bytes);
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), charset);
}

const CJK_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/g;

/**
 * For undeclared non-UTF-8 bytes: GB18030 when most non-ASCII characters it yields are CJK
 * (Chinese pages are the legacy-encoded ones freshet meets), Big5 when that fits better, else
 * windows-1252.
 */
function detectLegacy(bytes: Uint8Array): { charset: string; text: string } {
  let best = { charset: 'windows-1252', text: decodeWith(bytes, 'windows-1252'), score: 0.5 };
  for (const charset of ['gb18030', 'big5']) {
    const text = decodeWith(bytes, charset);
    let nonAscii = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) nonAscii++;
    if (nonAscii === 0) continue;
    const cjk = text.match(CJK_RE)?.length ?? 0;
    const replacement = text.split('\ufffd').length - 1;
    const score = (cjk - 4 * replacement) / nonAscii;
    if (score > best.score) best = { charset, text, score };
  }
  return { charset: best.charset, text: best.text };
}

/**
 * Decodes HTML bytes: BOM, then the Content-Type header, then a `<meta>` declaration, then
 * detection. A declaration of a legacy charset on bytes that are valid non-ASCII UTF-8 is
 * treated as stale (re-encoded archives and CMS templates do this) and UTF-8 wins.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): DecodedHtml {
  const bom = bomCharset(bytes);
  if (bom) return { text: decodeWith(bytes.subarray(bom.length), bom.charset), charset: bom.charset, source: 'bom' };

  const high = hasHighBytes(bytes);
  // Decoded once: the strict pass both validates and yields the text.
  const utf8Text = high ? strictUtf8(bytes, true) : undefined;
  const utf8 = utf8Text !== undefined;
  const declared: Array<[string | undefined, CharsetSource]> = [
    [charsetFromContentType(contentType), 'header'],
    [charsetFromMeta(bytes), 'meta'],
  ];
  for (const [charset, source] of declared) {
    if (!charset) continue;
    if (!high) return { text: decodeWith(bytes, charset), charset, source };
    if (charset === 'utf-8') {
      if (utf8) return { text: utf8Text, charset, source };
      continue; // declared UTF-8 but is not: fall through to detection
    }
    if (utf8) return { text: utf8Text, charset: 'utf-8', source: 'detected' };
    return { text: decodeWith(bytes, charset), charset, source };
  }
  if (!high) return { text: decodeWith(bytes, 'utf-8'), charset: 'utf-8', source: 'default' };
  if (utf8) return { text: utf8Text, charset: 'utf-8', source: 'detected' };
  const legacy = detectLegacy(bytes);
  return { text: legacy.text, charset: legacy.charset, source: 'detected' };
}
