import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { Gauge, type Registry } from 'prom-client';
import { z } from 'zod';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Logger } from '../core/logger';
import { fallbackWarning, withFallbacks, type AnalyzerPlan } from './analyzer-plan';
import { analyzerPlanFor } from './features';
import { isResponseError } from './node-errors';

/** The part of a composable index template freshet relies on; the rest passes through. */
const templateSchema = z.looseObject({
  index_patterns: z.array(z.string().min(1)).min(1),
  priority: z.number().int().optional(),
  version: z.number().int().optional(),
  template: z.looseObject({
    settings: z.record(z.string(), z.unknown()).optional(),
    mappings: z.looseObject({
      // Never left to dynamic mapping: an unknown field is an error, not a surprise in Kibana.
      dynamic: z.literal('strict'),
      properties: z.record(z.string(), z.unknown()),
    }),
  }),
});

export type IndexTemplateBody = z.infer<typeof templateSchema>;

export interface IndexTemplate {
  /** Logical index name, e.g. `posts`; the file is `mappings/<name>.json`. */
  name: string;
  body: IndexTemplateBody;
  /** Where it was read from, for messages. */
  file?: string;
}

export function parseTemplate(name: string, json: string, file = `${name}.json`): IndexTemplate {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new FreshetError(ErrorCodes.templateInvalid, 'critical', `${file}: not JSON: ${(err as Error).message}`);
  }
  const parsed = templateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? issue.path.join('.') : '';
    throw new FreshetError(ErrorCodes.templateInvalid, 'critical',
      `${file}: ${path || '(root)'}: ${issue?.message ?? 'invalid'}`, { file, path });
  }
  if (!parsed.data.index_patterns.includes(name)) {
    throw new FreshetError(ErrorCodes.templateInvalid, 'critical',
      `${file}: index_patterns must include the file's own name "${name}"`, { file });
  }
  return { name, body: parsed.data, file };
}

export function loadTemplates(dir: string): IndexTemplate[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => parseTemplate(basename(f, '.json'), readFileSync(join(dir, f), 'utf8'), join(dir, f)));
}

export interface ApplyOptions {
  /** Prepended to template names and index patterns (`freshet-`, or a per-test prefix). */
  prefix: string;
  /** Index settings that override the files' (e.g. `number_of_replicas: 0` on one node). */
  settings?: Record<string, unknown>;
  /** Told (warn) when a documented analyzer fallback is in use; the CLI prints it otherwise. */
  logger?: Logger;
  /** Gets `freshet_search_analyzer_fallback{analyzer,fallback}` = 1 per fallback in use. */
  registry?: Registry;
}

export function indexName(prefix: string, name: string): string {
  return `${prefix}${name}`;
}

export function prefixTemplate(t: IndexTemplate, opts: ApplyOptions): { name: string; body: IndexTemplateBody } {
  const body: IndexTemplateBody = {
    ...t.body,
    index_patterns: t.body.index_patterns.map((p) => `${opts.prefix}${p}`),
    template: { ...t.body.template, settings: { ...t.body.template.settings, ...opts.settings } },
  };
  return { name: indexName(opts.prefix, t.name), body };
}

export interface AppliedTemplates {
  names: string[];
  /** The analyzers that fell back on this node (empty when it has them all). */
  plan: AnalyzerPlan;
  /** Set when a fallback is in use: the one warning line. */
  warning?: string;
}

/**
 * Puts every template; idempotent (a put replaces the template of the same name). First asks the
 * node for each analyzer the templates use: a missing one falls back as documented (warned, with
 * a metric, and recorded in the index's `_meta`) or is refused in one line naming it.
 */
export async function applyTemplatesReport(client: Client, templates: IndexTemplate[], opts: ApplyOptions): Promise<AppliedTemplates> {
  const { plan, node } = await analyzerPlanFor(client, templates.map((t) => t.body.template));
  const warning = fallbackWarning(plan, node ?? 'version unknown');
  if (warning) {
    opts.logger?.warn({ code: ErrorCodes.searchUnsupported, fallbacks: plan.fallbacks }, warning);
    if (opts.registry) {
      const name = 'freshet_search_analyzer_fallback';
      const gauge = (opts.registry.getSingleMetric(name) as Gauge<'analyzer' | 'fallback'> | undefined)
        ?? new Gauge({ name, help: 'Analyzers the search node lacks, replaced by their documented fallback (1 while in use)', labelNames: ['analyzer', 'fallback'], registers: [opts.registry] });
      for (const f of plan.fallbacks) gauge.set({ analyzer: f.analyzer, fallback: f.fallback }, 1);
    }
  }
  const names: string[] = [];
  for (const t of templates) {
    const { name, body } = prefixTemplate(t, opts);
    const adapted = { ...body, template: { ...body.template, mappings: withFallbacks(body.template.mappings, plan) } };
    try {
      // The body is validated above; the client's own types are stricter than the wire format.
      await client.indices.putIndexTemplate({ name, ...(adapted as object) } as Parameters<Client['indices']['putIndexTemplate']>[0]);
    } catch (err) {
      if (!isResponseError(err)) throw err;
      throw new FreshetError(ErrorCodes.templateInvalid, 'critical', `index template ${name} (${t.file ?? `${t.name}.json`}) refused: ${err.message}`, { template: name }, err);
    }
    names.push(name);
  }
  return { names, plan, ...(warning ? { warning } : {}) };
}

/** `applyTemplatesReport`, for callers that only need the names. */
export async function applyTemplates(client: Client, templates: IndexTemplate[], opts: ApplyOptions): Promise<string[]> {
  return (await applyTemplatesReport(client, templates, opts)).names;
}
