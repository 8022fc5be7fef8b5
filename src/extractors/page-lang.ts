import { elementsOf, type Page } from './page-elements';

/**
 * Which BMP code units are letters (`\p{L}`), 1 or 0, read off the regex once per process (the
 * regex's own Unicode data, so the two cannot disagree); surrogates are 0 (pairs are looked at
 * one by one). Counting through the table costs a load per character; a `\p{L}` match over the
 * sample built an array of one-character strings.
 */
function bmpLetterTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  const units = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) units[c] = c >= 0xd800 && c <= 0xdfff ? 0x20 : c;
  let all = '';
  for (let c = 0; c < 0x10000; c += 0x1000) all += String.fromCharCode(...units.subarray(c, c + 0x1000));
  for (const m of all.matchAll(/\p{L}+/gu)) table.fill(1, m.index, m.index + m[0].length);
  return table;
}
const BMP_LETTERS = bmpLetterTable();
const ASTRAL_LETTER_RE = /^\p{L}$/u;

/** `<html lang>` when present, else the dominant script of the text. */
export function findLang(page: Page, text: string): string {
  const html = elementsOf(page).html;
  const declared = html?.attribs.lang?.toLowerCase().split(/[-_]/)[0];
  const sample = text.slice(0, 2000);
  // Script counts by UTF-16 unit (all four ranges lie in the BMP), in one pass.
  let han = 0;
  let kana = 0;
  let hangul = 0;
  let cyr = 0;
  // Letters (`\p{L}`) by code point, as a `u` regex counts them.
  let letters = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    letters += BMP_LETTERS[c]!;
    if (c < 0x0400) continue;
    if (c >= 0x4e00 && c <= 0x9fff) han++;
    else if (c >= 0x3040 && c <= 0x30ff) kana++;
    else if (c >= 0xac00 && c <= 0xd7af) hangul++;
    else if (c <= 0x04ff) cyr++;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < sample.length) {
      const lo = sample.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        if (ASTRAL_LETTER_RE.test(sample.slice(i, i + 2))) letters++;
        i++;
      }
    }
  }
  return langOfScripts({ han, kana, hangul, cyr, letters }, declared);
}

/** Script counts of a text sample: Han, kana, Hangul and Cyrillic UTF-16 units, letters by code point. */
export interface ScriptCounts {
  han: number;
  kana: number;
  hangul: number;
  cyr: number;
  letters: number;
}

/** The language a sample's script counts point to, the declared one unless the script says otherwise. */
export function langOfScripts(c: ScriptCounts, declared: string | undefined): string {
  if (c.letters > 0) {
    if (c.kana > 0.05 * c.letters) return 'ja';
    if (c.hangul > 0.3 * c.letters) return 'ko';
    if (c.han > 0.3 * c.letters) return 'zh';
    if (c.cyr > 0.3 * c.letters && declared !== 'uk' && declared !== 'bg') return declared ?? 'ru';
  }
  return declared || (c.letters > 0 ? 'en' : 'und');
}
