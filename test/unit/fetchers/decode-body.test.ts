import iconv from 'iconv-lite';
import { decodeHtml } from '../../../src/core/charset';
import { decodeBody, inferExpect } from '../../../src/fetchers/decode-body';

const ZH = '北京时间昨日，国家统计局发布数据：全年国内生产总值增长。';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const BOM = [0xef, 0xbb, 0xbf];

/** The fast UTF-8 path must give exactly what the shared decoder gives. */
const cases: Array<[string, Uint8Array, string | undefined]> = [
  ['utf-8 header, utf-8 bytes', utf8(`<p>${ZH}</p>`), 'text/html; charset=utf-8'],
  ['no header, meta utf-8', utf8(`<meta charset="utf-8"><p>${ZH}</p>`), 'text/html'],
  ['no declaration, utf-8 bytes', utf8(`<p>${ZH}</p>`), undefined],
  ['ascii only', utf8('<p>hello</p>'), undefined],
  ['ascii with gbk meta', utf8('<meta charset="gbk"><p>hello</p>'), 'text/html'],
  ['utf-8 BOM', new Uint8Array([...BOM, ...utf8(`<p>${ZH}</p>`)]), 'text/html'],
  ['utf-16le BOM', new Uint8Array([0xff, 0xfe, ...iconv.encode('<p>hi</p>', 'utf-16le')]), 'text/html'],
  ['gbk, meta only', iconv.encode(`<meta charset="gbk"><p>${ZH}</p>`, 'gbk'), 'text/html'],
  ['gbk, no declaration', iconv.encode(`<p>${ZH}</p>`, 'gbk'), undefined],
  ['header says utf-8, bytes are gbk', iconv.encode(`<meta charset="gbk"><p>${ZH}</p>`, 'gbk'), 'text/html; charset=utf-8'],
  ['stale gbk meta on utf-8 bytes', utf8(`<meta charset="gb2312"><p>${ZH}</p>`), 'text/html'],
  ['latin-1 header', iconv.encode('<p>café</p>', 'latin1'), 'text/html; charset=iso-8859-1'],
];

describe('decodeBody', () => {
  it.each(cases)('html: %s — same text and charset as decodeHtml', (_name, bytes, contentType) => {
    const expected = decodeHtml(bytes, contentType);
    expect(decodeBody(bytes, contentType, 'html')).toEqual({ text: expected.text, charset: expected.charset });
  });

  it('decodes JSON as UTF-8 without its BOM, and honours an explicit non-UTF-8 charset', () => {
    expect(decodeBody(new Uint8Array([...BOM, ...utf8('{"a":"北京"}')]), 'application/json', 'json')).toEqual({ text: '{"a":"北京"}', charset: 'utf-8' });
    expect(decodeBody(iconv.encode('{"a":"北京"}', 'gbk'), 'application/json; charset=gbk', 'json')).toEqual({ text: '{"a":"北京"}', charset: 'gb18030' });
  });

  it('does not decode bytes, and infers what to decode from Content-Type', () => {
    expect(decodeBody(utf8('x'), 'image/png', 'bytes')).toEqual({ text: '', charset: '' });
    expect(inferExpect('application/json; charset=utf-8')).toBe('json');
    expect(inferExpect('application/ld+json')).toBe('json');
    expect(inferExpect('image/png')).toBe('bytes');
    expect(inferExpect('text/html')).toBe('html');
    expect(inferExpect(undefined)).toBe('html');
  });
});
