import { charsetFromContentType, decodeHtml } from '../core/charset';

export type Expect = 'json' | 'html' | 'text' | 'bytes';

const utf8 = new TextDecoder('utf-8', { ignoreBOM: false });

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
      // TextDecoder drops a leading BOM by default.
      return { text: utf8.decode(bytes), charset: 'utf-8' };
    }
    case 'html':
    case 'text': {
      const out = decodeHtml(bytes, contentType);
      return { text: out.text, charset: out.charset };
    }
  }
}
