import { isElement, type DomElement, type DomParent } from './dom';

/** Levels above a line's owner looked at for the <pre> it sits in (a highlighter wraps each line in a few <div>s and <span>s). */
const MAX_CODE_DEPTH = 6;

/**
 * Whether a line is code: it sits in a <pre> (a shell command, a listing). Its words are the
 * program's, so the wording rules of boilerplate (a short line with a web address is a site's
 * signature, a line without letters a counter) say nothing about it: `sh <(curl
 * https://create.tauri.app/sh)` is the page's install command.
 */
export function inCodeBlock(owner: DomParent): boolean {
  let el: DomParent | null = owner;
  for (let depth = 0; el && depth <= MAX_CODE_DEPTH; depth++, el = el.parent) {
    if (isElement(el) && (el as DomElement).name === 'pre') return true;
  }
  return false;
}
