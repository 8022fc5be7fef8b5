import { ErrorCodes, FreshetError } from '../core/errors';

/**
 * Documented fallbacks for analyzers a search node may lack. `cjk` lives in the analysis-common
 * module, which Elasticsearch's core-only distributions leave out; `standard` is always built in.
 * With `standard`, Chinese, Japanese and Korean text is indexed one character per token instead of
 * overlapping bigrams: every query still finds the posts that contain its characters, but a query
 * of two characters also matches posts holding them apart, so precision drops (recall does not).
 * Any other missing analyzer has no fallback: the templates are refused with its name.
 */
export const ANALYZER_FALLBACKS: Readonly<Record<string, string>> = { cjk: 'standard' };

/** What the node said when asked for an analyzer (or a module): available, or why not. */
export interface Availability {
  ok: boolean;
  /** The node's own reason when not available, e.g. `failed to find global analyzer [cjk]`. */
  reason?: string;
}

export interface AnalyzerFallback {
  analyzer: string;
  fallback: string;
  /** Why the node cannot use `analyzer`, in its own words. */
  reason: string;
}

export interface AnalyzerPlan {
  fallbacks: AnalyzerFallback[];
}

const ANALYZER_KEYS = ['analyzer', 'search_analyzer', 'search_quote_analyzer'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Names of the analyzers a template's settings define itself (custom analyzers need no probe). */
function definedAnalyzers(settings: unknown): Set<string> {
  const out = new Set<string>();
  if (!isObject(settings)) return out;
  const index = isObject(settings['index']) ? settings['index'] : {};
  for (const analysis of [settings['analysis'], index['analysis']]) {
    if (isObject(analysis) && isObject(analysis['analyzer'])) for (const name of Object.keys(analysis['analyzer'])) out.add(name);
  }
  for (const key of Object.keys(settings)) {
    const m = /^(?:index\.)?analysis\.analyzer\.([^.]+)\./.exec(key);
    if (m) out.add(m[1]!);
  }
  return out;
}

/** Every analyzer a mapping's fields (and their multi-fields) name, in order of first use. */
function walkAnalyzers(properties: unknown, out: Set<string>): void {
  if (!isObject(properties)) return;
  for (const field of Object.values(properties)) {
    if (!isObject(field)) continue;
    for (const key of ANALYZER_KEYS) if (typeof field[key] === 'string') out.add(field[key]);
    walkAnalyzers(field['properties'], out);
    walkAnalyzers(field['fields'], out);
  }
}

/** The built-in analyzers a template relies on: named by its fields, not defined in its settings. */
export function referencedAnalyzers(template: { settings?: unknown; mappings?: unknown }): string[] {
  const used = new Set<string>();
  walkAnalyzers(isObject(template.mappings) ? template.mappings['properties'] : undefined, used);
  const defined = definedAnalyzers(template.settings);
  return [...used].filter((a) => !defined.has(a));
}

/**
 * Decides, from what the node said about each analyzer (and each fallback), which analyzers fall
 * back and to what. A missing analyzer without a usable fallback is refused in one line naming
 * it, the node and the node's reason; nothing is left for a generic template error.
 */
export function planAnalyzers(referenced: readonly string[], available: (name: string) => Availability | undefined, node: string): AnalyzerPlan {
  const fallbacks: AnalyzerFallback[] = [];
  const refused: string[] = [];
  for (const analyzer of referenced) {
    const a = available(analyzer);
    if (!a || a.ok) continue;
    const reason = a.reason ?? 'not available';
    const fallback = ANALYZER_FALLBACKS[analyzer];
    const f = fallback === undefined ? undefined : available(fallback);
    if (fallback !== undefined && f?.ok) fallbacks.push({ analyzer, fallback, reason });
    else refused.push(fallback === undefined ? `[${analyzer}] (${reason}; no documented fallback)` : `[${analyzer}] (${reason}; its fallback [${fallback}]: ${f?.reason ?? 'not probed'})`);
  }
  if (refused.length > 0) {
    throw new FreshetError(ErrorCodes.searchUnsupported, 'critical',
      `the search node (${node}) lacks the analyzer${refused.length > 1 ? 's' : ''} ${refused.join(', ')} that mappings/ use`,
      { node, analyzers: refused });
  }
  return { fallbacks };
}

/** The key in a mapping's `_meta` that records the fallbacks an index was created with. */
export const FALLBACK_META_KEY = 'freshet_analyzer_fallbacks';

function rewriteProperties(properties: unknown, map: ReadonlyMap<string, string>): unknown {
  if (!isObject(properties)) return properties;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    if (!isObject(field)) {
      out[name] = field;
      continue;
    }
    const f: Record<string, unknown> = { ...field };
    for (const key of ANALYZER_KEYS) {
      const to = typeof f[key] === 'string' ? map.get(f[key]) : undefined;
      if (to !== undefined) f[key] = to;
    }
    if ('properties' in f) f['properties'] = rewriteProperties(f['properties'], map);
    if ('fields' in f) f['fields'] = rewriteProperties(f['fields'], map);
    out[name] = f;
  }
  return out;
}

/**
 * The mappings with each fallen-back analyzer replaced, and the substitution recorded in
 * `_meta.freshet_analyzer_fallbacks` so the index itself says how its text was analysed.
 */
export function withFallbacks<M extends { properties?: unknown; _meta?: unknown }>(mappings: M, plan: AnalyzerPlan): M {
  if (plan.fallbacks.length === 0) return mappings;
  const map = new Map(plan.fallbacks.map((f) => [f.analyzer, f.fallback]));
  const used = new Set(referencedAnalyzers({ mappings }));
  const recorded = Object.fromEntries(plan.fallbacks.filter((f) => used.has(f.analyzer)).map((f) => [f.analyzer, f.fallback]));
  if (Object.keys(recorded).length === 0) return mappings;
  return {
    ...mappings,
    properties: rewriteProperties(mappings.properties, map),
    _meta: { ...(isObject(mappings._meta) ? mappings._meta : {}), [FALLBACK_META_KEY]: recorded },
  };
}

/** The warning printed once per start when a fallback is in use. */
export function fallbackWarning(plan: AnalyzerPlan, node: string): string | undefined {
  if (plan.fallbacks.length === 0) return undefined;
  return `the search node (${node}) lacks ${plan.fallbacks.map((f) => `the ${f.analyzer} analyzer (${f.reason})`).join(' and ')}; `
    + `text fields use ${plan.fallbacks.map((f) => `${f.fallback} instead of ${f.analyzer}`).join(', ')} (see README, "Search engines")`;
}
