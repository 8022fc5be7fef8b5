import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ErrorCodes, FreshetError } from '../core/errors';

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
  return { name, body: parsed.data };
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

/** Puts every template; idempotent (a put replaces the template of the same name). */
export async function applyTemplates(client: Client, templates: IndexTemplate[], opts: ApplyOptions): Promise<string[]> {
  const names: string[] = [];
  for (const t of templates) {
    const { name, body } = prefixTemplate(t, opts);
    // The body is validated above; the client's own types are stricter than the wire format.
    await client.indices.putIndexTemplate({ name, ...(body as object) } as Parameters<Client['indices']['putIndexTemplate']>[0]);
    names.push(name);
  }
  return names;
}
