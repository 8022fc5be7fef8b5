import iconv from 'iconv-lite';
import { charsetFromMeta, decodeHtml, normalizeCharset } from '../../../src/core/charset';

const ZH = '北京时间昨日，国家统计局发布数据：全年国内生产总值增长百分之五。记者注意到，消费、投资和出口均有回升。';
const page = (head: string, body = ZH): string =>
  `<!DOCTYPE html><html><head>${head}<title>新闻中心</title></head><body><div id="content"><p>${body}</p></div></body></html>`;

describe('decodeHtml', () => {
  it('decodes a GBK page that declares no charset (detection, not mojibake)', () => {
    const bytes = iconv.encode(page(''), 'gbk');
    const out = decodeHtml(bytes);
    expect(out).toMatchObject({ charset: 'gb18030', source: 'detected' });
    expect(out.text).toContain(ZH);
  });

  it('decodes a GB2312 page with no declaration and GBK-only characters in it', () => {
    const body = `${ZH}镕基与喆`; // 镕 and 喆 are outside GB2312
    const out = decodeHtml(iconv.encode(page('', body), 'gbk'));
    expect(out.text).toContain(body);
  });

  it('uses a meta charset declaration (gb2312 decodes as gb18030)', () => {
    const out = decodeHtml(iconv.encode(page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'), 'gbk'));
    expect(out).toMatchObject({ charset: 'gb18030', source: 'meta' });
    expect(out.text).toContain(ZH);
  });

  it('prefers the Content-Type header over the meta declaration', () => {
    const bytes = iconv.encode(page('<meta charset="utf-8">'), 'gbk');
    const out = decodeHtml(bytes, 'text/html; charset=GBK');
    expect(out).toMatchObject({ charset: 'gb18030', source: 'header' });
    expect(out.text).toContain(ZH);
  });

  it('treats a legacy declaration on valid UTF-8 bytes as stale', () => {
    const bytes = new TextEncoder().encode(page('<meta charset="gb2312">'));
    const out = decodeHtml(bytes);
    expect(out).toMatchObject({ charset: 'utf-8', source: 'detected' });
    expect(out.text).toContain(ZH);
  });

  it('falls back to detection when a UTF-8 declaration is false', () => {
    const out = decodeHtml(iconv.encode(page('<meta charset="utf-8">'), 'gbk'));
    expect(out).toMatchObject({ charset: 'gb18030', source: 'detected' });
    expect(out.text).toContain(ZH);
  });

  it('honours and strips a UTF-8 BOM', () => {
    const body = new TextEncoder().encode(page(''));
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...body]);
    const out = decodeHtml(bytes, 'text/html; charset=iso-8859-1');
    expect(out.source).toBe('bom');
    expect(out.text.startsWith('<!DOCTYPE')).toBe(true);
  });

  it('decodes undeclared Latin-1 text as windows-1252', () => {
    const bytes = iconv.encode('<html><body><p>Caf\u00e9 cr\u00e8me \u2013 d\u00e9j\u00e0 vu, na\u00efve fa\u00e7ade.</p></body></html>', 'windows-1252');
    const out = decodeHtml(bytes);
    expect(out.charset).toBe('windows-1252');
    expect(out.text).toContain('Caf\u00e9 cr\u00e8me \u2013 d\u00e9j\u00e0 vu');
  });

  it('calls pure ASCII without a declaration the default UTF-8', () => {
    expect(decodeHtml(new TextEncoder().encode('<p>plain</p>'))).toEqual({ text: '<p>plain</p>', charset: 'utf-8', source: 'default' });
  });

  it('decodes Big5 when declared', () => {
    const zhTw = '臺灣新聞報導，總統府今日發表聲明。';
    const out = decodeHtml(iconv.encode(page('<meta charset="big5">', zhTw), 'big5'));
    expect(out.text).toContain(zhTw);
  });
});

describe('charset helpers', () => {
  it('normalises labels and rejects unknown ones', () => {
    expect(normalizeCharset('GB2312')).toBe('gb18030');
    expect(normalizeCharset('"UTF8"')).toBe('utf-8');
    expect(normalizeCharset('no-such-charset')).toBeUndefined();
  });

  it('finds a meta charset only near the top of the document', () => {
    const early = new TextEncoder().encode('<head><meta charset=gbk></head>');
    expect(charsetFromMeta(early)).toBe('gb18030');
    const late = new TextEncoder().encode(`${' '.repeat(5000)}<meta charset=gbk>`);
    expect(charsetFromMeta(late)).toBeUndefined();
  });
});
