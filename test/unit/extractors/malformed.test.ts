import { countDivTags, looksMalformed } from '../../../src/extractors/malformed';

/** What the scan replaces: the two regex counts. */
const byRegex = (s: string) => ({ opens: s.match(/<div[\s>]/gi)?.length ?? 0, closes: s.match(/<\/div\s*>/gi)?.length ?? 0 });

describe('countDivTags', () => {
  it('counts what the regexes count, case, spaces (Unicode too) and near misses included', () => {
    const cases = ['<div>', '<DIV class=x>', '<dIv\n>', '</div>', '</DIV  \n >', '</div', '<div', '<divx>', '</divx>', '<div\u00a0>', '</div\u3000>',
      '<<div>', '</ div>', '<div/>', '<\u0130v>', '<dİv>', 'x<div>y</div >z</div\t>', '<d', '<', '', '</div\u2028>', '<div\ufeff', '</di>'];
    for (const s of cases) expect([s, countDivTags(s)]).toEqual([s, byRegex(s)]);
  });

  it('agrees with the regexes on random strings of the letters that matter', () => {
    const parts = ['<', '/', 'd', 'D', 'i', 'I', 'v', 'V', ' ', '\n', '>', 'x', '\u00a0', '\u2028'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 5000; t++) {
      let s = '';
      for (let k = 0; k < 24; k++) s += parts[Math.floor(next() * parts.length)];
      expect([s, countDivTags(s)]).toEqual([s, byRegex(s)]);
    }
  });

  it('calls a page malformed when fewer than half of three or more <div>s close', () => {
    expect(looksMalformed('<div><div><div><p>x</div>')).toBe(true);
    expect(looksMalformed('<div><div><div><p>x</div></div>')).toBe(false);
    expect(looksMalformed('<div><div>')).toBe(false);
  });
});
