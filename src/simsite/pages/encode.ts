import iconv from 'iconv-lite';
import type { SimResponse } from '../http-types';
import type { CharsetDeclaration } from './forum-world';

/** Where templates put the charset meta tag, if the page declares one. */
export const CHARSET_SLOT = '<!--charset-->';

/**
 * Encodes a page and declares its charset as the board does: in the header (and a meta tag), only in
 * a meta tag (the header says plain text/html), or nowhere at all (a client must sniff the bytes).
 */
export function encodePage(html: string, encoding: 'utf-8' | 'gbk', declared: CharsetDeclaration, status = 200): SimResponse {
  const meta = encoding === 'gbk'
    ? '<meta http-equiv="Content-Type" content="text/html; charset=gbk" />'
    : '<meta charset="utf-8">';
  const page = html.replace(CHARSET_SLOT, declared === 'none' ? '' : meta);
  const body = encoding === 'gbk' ? iconv.encode(page, 'gbk') : Buffer.from(page, 'utf8');
  const contentType = declared === 'header' ? `text/html; charset=${encoding}` : 'text/html';
  return { status, headers: { 'content-type': contentType }, body, kind: 'html' };
}
