import { createRequire } from 'node:module';
import { Readability } from '@mozilla/readability';
import iconv from 'iconv-lite';
import { isValidUtf8, charsetFromMeta } from '../../../src/core/charset';

// linkedom's types are ESM-only while this project compiles to CommonJS; its CommonJS build
// loads fine at run time, so it is required by hand and typed from the ESM declarations.
const { parseHTML } = createRequire(__filename)('linkedom') as typeof import('linkedom', { with: { 'resolution-mode': 'import' } });

/**
 * Decoding exactly as the published Readability.js baseline of extraction-dev did it: UTF-8 if
 * valid, else the charset declared in the first 4 KiB, else gb18030.
 */
export function baselineDecode(bytes: Uint8Array): string {
  if (isValidUtf8(bytes)) return new TextDecoder('utf-8').decode(bytes);
  const declared = charsetFromMeta(bytes);
  return iconv.decode(Buffer.from(bytes), declared && declared !== 'utf-8' ? declared : 'gb18030');
}

/** `textContent` of Readability.parse() on a linkedom document ('' when it gives up). */
export function readabilityText(bytes: Uint8Array): { title: string; text: string } {
  const { document } = parseHTML(baselineDecode(bytes));
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  return { title: article?.title ?? '', text: article?.textContent ?? '' };
}
