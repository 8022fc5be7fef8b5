/**
 * Tokenizers of the published benchmarks. Python's `\w` (Unicode) is letters, digits and `_`
 * (not combining marks), which is `[\p{L}\p{N}_]` here.
 */

const CJK = '\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u3040-\\u30ff';

/** Scrapinghub's `\w+` (case kept). */
export function wordTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** Every CJK ideograph and kana is one token; other word characters group as in `\w+`. */
const CJK_TOKEN_RE = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}_])+`, 'gu');

export function cjkTokens(text: string): string[] {
  return text.match(CJK_TOKEN_RE) ?? [];
}
