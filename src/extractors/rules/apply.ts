import { load, type CheerioAPI } from 'cheerio/slim';
import { select } from 'cheerio-select';
// domhandler is cheerio's own DOM package; only its node type is needed here.
import type { AnyNode, Document, Element } from 'domhandler';
import { toBlocks } from '../blocks';
import { isElement, parseHtml, type DomNode, type DomParent, type DomRoot } from '../dom';
import { normalizeDate } from '../published';
import { urlResolver } from './resolve-url';
import type { Field, FieldRule, RuleSet } from './schema';

export type FieldValue = string | string[] | null;

/** What one rule set read from one page. */
export interface RulesResult {
  ruleSet: string;
  fields: Record<string, FieldValue>;
  /** One record per list item (post), in page order. */
  items: Array<Record<string, FieldValue>>;
  /** Absolute URL of the next page, when the rule set has pagination and there is one. */
  next?: string;
  /** Absolute, de-duplicated out-links. */
  links: string[];
}

/** The first rule set whose URL patterns match (prefixes, then regexes, in declaration order). */
export function selectRuleSet(url: string, ruleSets: RuleSet[]): RuleSet | undefined {
  return ruleSets.find((rs) => rs.match.prefix.some((p) => url.startsWith(p)) || rs.match.regex.some((r) => new RegExp(r, 'u').test(url)));
}

/** Visible text of an element, one line per block (as the text_density extractor sees it). */
function blockText(node: AnyNode): string {
  return toBlocks(node as unknown as DomParent).map((b) => b.text).join('\n');
}

type Resolve = (href: string) => string | undefined;
/** The page's cheerio instance, built on first use: a rule set that only reads links never needs one. */
type Cheerio$ = () => CheerioAPI;

function readOne(get$: Cheerio$, el: AnyNode, rule: FieldRule, resolve: Resolve): string | null {
  let node = get$()(el);
  if (rule.exclude.length) {
    node = node.clone();
    node.find(rule.exclude.join(',')).remove();
  }
  let v: string | undefined;
  if (rule.type === 'attr') v = node.attr(rule.attr!);
  else if (rule.type === 'html') v = node.html() ?? undefined;
  else v = blockText(node[0]!);
  if (v === undefined) return null;
  v = v.trim();
  if (rule.regex) {
    const m = new RegExp(rule.regex, 'u').exec(v);
    if (!m) return null;
    v = (m[1] ?? m[0]).trim();
  }
  for (const r of rule.replace) v = v.replace(new RegExp(r.pattern, 'gu'), r.with);
  if (rule.date) {
    const d = normalizeDate(v, rule.utcOffset);
    if (!d) return null;
    v = d;
  }
  if (rule.url) v = resolve(v);
  return v ? v : null;
}

/** Selectors that start at the scope itself rather than below it (cheerio's own test). */
const AT_SCOPE_RE = /^\s*(?:[+~]|:scope\b)/;

/** `tag`, `[attr]` or `tag[attr]`: what link selectors mostly are (`a[href]`). */
const SIMPLE_SELECTOR_RE = /^\s*([A-Za-z][A-Za-z0-9-]*)?(?:\[\s*([A-Za-z_:][-A-Za-z0-9_:.]*)\s*\])?\s*$/;

/** dom.ts's element test, for cheerio's node type. */
const isElementNode = (node: AnyNode): node is Element => isElement(node as unknown as DomNode);

/** The descendants of `parent` with that tag and attribute, in document order, as css-select matches them in HTML. */
function collectSimple(parent: AnyNode, tag: string | undefined, attr: string | undefined, out: AnyNode[], limit: number): void {
  if (!('children' in parent)) return;
  for (const c of parent.children) {
    if (out.length >= limit) return;
    if (!isElementNode(c)) continue;
    if ((tag === undefined || c.name === tag) && (attr === undefined || (Object.hasOwn(c.attribs, attr) && c.attribs[attr] != null))) out.push(c);
    if (c.children.length) collectSimple(c, tag, attr, out, limit);
  }
}

/**
 * Elements under `scope` matching a selector, as cheerio's `find` selects them (jQuery extensions,
 * `:scope`), with cheerio's own engine but no cheerio wrapper per call: about half the cost on a
 * page of a hundred links. A plain `tag[attr]` is matched by a walk of the tree: a third of the
 * engine's cost on such a page, and links are read on every page.
 */
function selectIn(root: AnyNode, scope: AnyNode, selector: string, limit = Number.POSITIVE_INFINITY): AnyNode[] {
  const simple = SIMPLE_SELECTOR_RE.exec(selector);
  if (simple && (simple[1] || simple[2])) {
    const out: AnyNode[] = [];
    // HTML parsing lower-cases tag and attribute names, and so does css-select's matching.
    collectSimple(scope, simple[1]?.toLowerCase(), simple[2]?.toLowerCase(), out, limit);
    return out;
  }
  const from = AT_SCOPE_RE.test(selector) ? [scope] : 'children' in scope ? scope.children.filter(isElementNode) : [];
  return select(selector, from, { xmlMode: false, context: [scope], root: root as Document }, limit);
}

function readRule(get$: Cheerio$, root: AnyNode, scope: AnyNode, rule: FieldRule, resolve: Resolve): FieldValue {
  const matches = selectIn(root, scope, rule.selector);
  if (rule.all) return matches.map((m) => readOne(get$, m, rule, resolve)).filter((x): x is string => x !== null);
  for (const m of matches) {
    const v = readOne(get$, m, rule, resolve);
    if (v !== null) return v;
  }
  return null;
}

const isEmpty = (v: FieldValue): boolean => v === null || (Array.isArray(v) && v.length === 0);

function readField(get$: Cheerio$, root: AnyNode, scope: AnyNode, field: Field, resolve: Resolve): FieldValue {
  let last: FieldValue = null;
  for (const rule of field) {
    last = readRule(get$, root, scope, rule, resolve);
    if (!isEmpty(last)) return last;
  }
  return last;
}

function readFields(get$: Cheerio$, root: AnyNode, scope: AnyNode, fields: Record<string, Field>, resolve: Resolve): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(fields)) out[name] = readField(get$, root, scope, field, resolve);
  return out;
}

/** Applies one rule set to a page (its HTML, or the `parseHtml` of it, which is then not parsed again). */
export function applyRuleSet(html: string | DomRoot, url: string, rs: RuleSet): RulesResult {
  const root = (typeof html === 'string' ? parseHtml(html) : html) as unknown as AnyNode;
  let $: CheerioAPI | undefined;
  const get$ = (): CheerioAPI => ($ ??= load(root, { xml: false }, true));
  const resolve = urlResolver(url);
  const fields = readFields(get$, root, root, rs.fields, resolve);
  const items: RulesResult['items'] = [];
  if (rs.list) {
    for (const el of selectIn(root, root, rs.list.selector)) {
      const item = readFields(get$, root, el, rs.list.fields, resolve);
      if (rs.list.required.every((k) => !isEmpty(item[k] ?? null))) items.push(item);
    }
  }
  const result: RulesResult = { ruleSet: rs.name, fields, items, links: [] };
  if (rs.pagination) {
    const first = selectIn(root, root, rs.pagination.selector, 1)[0];
    const href = first && 'attribs' in first ? first.attribs[rs.pagination.attr] : undefined;
    const next = href ? resolve(href) : undefined;
    if (next && next !== url) result.next = next;
  }
  if (rs.links) {
    const seen = new Set<string>();
    const keep = rs.links.regex ? new RegExp(rs.links.regex, 'u') : undefined;
    for (const a of selectIn(root, root, rs.links.selector)) {
      // The attribute straight off the node: a cheerio wrapper per link cost more than the lookup.
      const href = 'attribs' in a ? a.attribs[rs.links.attr] : undefined;
      // A fragment never names another document: links to #pid anchors are the page itself.
      let abs = href ? resolve(href) : undefined;
      if (abs?.includes('#')) abs = abs.slice(0, abs.indexOf('#'));
      if (abs && abs !== url && !seen.has(abs) && (!keep || keep.test(abs))) seen.add(abs);
    }
    result.links = [...seen];
  }
  return result;
}

/**
 * The `html_rules` extractor: the first rule set whose URL patterns match the page URL reads
 * its fields, list items, next page and out-links; undefined when no rule set applies.
 */
export function applyRules(html: string, url: string, ruleSets: RuleSet[]): RulesResult | undefined {
  const rs = selectRuleSet(url, ruleSets);
  return rs ? applyRuleSet(html, url, rs) : undefined;
}
