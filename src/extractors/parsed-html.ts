import type { Doc } from '../core/envelope';
import type { DomRoot } from './dom';

/**
 * An adapter that already parsed a page hands the DOM to the `text_density` stage with the
 * document, so a page is parsed once per crawl, not once per stage. The DOM rides on a
 * non-enumerable symbol property: never serialised (bulk bodies, dead letters), never copied by
 * spreads, and released as soon as the extractor takes it.
 */
const PARSED_HTML = Symbol('freshet.parsedHtml');

interface Parsed {
  html: string;
  root: DomRoot;
}

type WithParsed = Doc & { [PARSED_HTML]?: Parsed };

export function attachParsedHtml(doc: Doc, html: string, root: DomRoot): Doc {
  Object.defineProperty(doc, PARSED_HTML, { value: { html, root }, enumerable: false, configurable: true });
  return doc;
}

/**
 * The DOM attached to `doc`, detached from it; undefined when none is attached or when a stage
 * in between replaced the HTML (the DOM would no longer be this HTML's).
 */
export function takeParsedHtml(doc: Doc, html: unknown): DomRoot | undefined {
  const parsed = (doc as WithParsed)[PARSED_HTML];
  if (!parsed) return undefined;
  delete (doc as WithParsed)[PARSED_HTML];
  return parsed.html === html ? parsed.root : undefined;
}
