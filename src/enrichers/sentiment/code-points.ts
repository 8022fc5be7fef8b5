/** Character classes the feature extractor reads text by, one code point at a time. */

export function isHan(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf);
}

export function isSpace(cp: number): boolean {
  return cp === 0x20 || cp === 0x09 || cp === 0x0a || cp === 0x0d || cp === 0x3000 || cp === 0xa0 || cp === 0x200b || cp === 0xfeff;
}

/** A code point with case and digits folded: digits carry no sentiment, only sparsity. */
export function foldCp(cp: number): number {
  if (cp >= 0x41 && cp <= 0x5a) return cp + 32;
  if (cp >= 0x30 && cp <= 0x39) return 0x30;
  if (cp >= 0xff10 && cp <= 0xff19) return 0x30;
  return cp;
}
