import { isUtf8 } from 'node:buffer';
import { charsetFromContentType, charsetFromMeta, decodeHtml } from '../core/charset';

export type Expect = 'json' | 'html' | 'text' | 'bytes';

/** Binary media types whose bytes are never worth decoding as text when nothing was asked for. */
const BINARY_RE = /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-protobuf|wasm)/i;
const JSON_RE = /[/+]json\b|^application\/javascript/i;

/** What to decode the body as when the request did not say. */
export function inferExpect(contentType: string | undefined): Expect {
  if (!contentType) return 'html';
  if (JSON_RE.test(contentType)) return 'json';
  if (BINARY_RE.test(contentType)) return 'bytes';
  return 'html';
}

/**
 * JSON is UTF-8 (RFC 8259) unless a server explicitly says otherwise, which some Chinese APIs do
 * (GBK JSON); HTML and text go through the shared charset detector; bytes are not decoded.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, expect: Expect): { text: string; charset: string } {
  if (bytes.length === 0) return { text: '', charset: expect === 'bytes' ? '' : 'utf-8' };
  switch (expect) {
    case 'bytes':
      return { text: '', charset: '' };
    case 'json': {
      const declared = charsetFromContentType(contentType);
      if (declared && declared !== 'utf-8') {
        const out = decodeHtml(bytes, contentType);
        return { text: out.text, charset: out.charset };
      }
      return { text: utf8Text(bytes), charset: 'utf-8' };
    }
    case 'html':
    case 'text': {
      const fast = decodeDeclaredUtf8(bytes, contentType);
      if (fast !== undefined) return { text: fast, charset: 'utf-8' };
      const out = decodeHtml(bytes, contentType);
      return { text: out.text, charset: out.charset };
    }
  }
}

/**
 * The common case in one pass: the page declares UTF-8 (header, else meta) or nothing, and its
 * bytes are valid UTF-8. decodeHtml returns exactly this text and charset for such input, but
 * scans and decodes the bytes three times to find out; this decodes once. Anything else
 * (legacy charsets, invalid bytes, UTF-16 BOMs) goes to decodeHtml.
 */
function decodeDeclaredUtf8(bytes: Uint8Array, contentType: string | undefined): string | undefined {
  const declared = charsetFromContentType(contentType) ?? charsetFromMeta(bytes);
  if (declared !== undefined && declared !== 'utf-8') return undefined;
  return isUtf8(bytes) ? utf8Text(bytes) : undefined;
}

/** Buffer#toString is the fastest UTF-8 decoder in Node (faster than TextDecoder); it keeps a BOM, so drop it. */
function utf8Text(bytes: Uint8Array): string {
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return Buffer.from(bytes.buffer, bytes.byteOffset + (hasBom ? 3 : 0), bytes.length - (hasBom ? 3 : 0)).toString('utf8');
}
