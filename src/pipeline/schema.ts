import { z } from 'zod';
import { pipelineAlertsSchema } from '../alerts/monitor';
import { oneAttemptPerQuota } from '../fetchers/quota-retry';
import { httpFetchConfigSchema } from '../fetchers/http-fetch-config';
import { identitiesConfigSchema } from '../fetchers/identities-config';
import { renderConfigSchema } from '../fetchers/render/render-config';
import { proxiesConfigSchema } from '../fetchers/proxy-config';
import { webPagesConfigSchema } from '../parsers/web-pages';
import { weiboApiConfigSchema } from '../parsers/weibo-api';
import { zhihuApiConfigSchema } from '../parsers/zhihu-api';
import { fixedIntervalConfigSchema } from '../schedule/fixed-interval';
import { poissonScheduleSchema } from '../schedule/refit';
import { elasticsearchSinkConfigSchema } from '../sinks/elasticsearch';
import { blackholeSinkConfigSchema } from '../sinks/blackhole';
import { redisFrontierConfigSchema } from '../sources/redis-frontier';
import { documentStageSchema } from './stages';
import { politenessConfigSchema } from '../limits/politeness-config';

/**
 * A pipeline file (`pipelines/*.yaml`), assembled from each stage type's own strict schema:
 * unknown keys are errors everywhere, and `pipelines/pipeline.schema.json` is generated from it.
 */
export const pipelineSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lower-case letters, digits, - and _'),
  description: z.string().optional(),
  source: redisFrontierConfigSchema.prefault({ type: 'redis_frontier' }),
  /** Subjects offered to the frontier at start (known ones are left as they are). */
  seeds: z.array(z.string().regex(/^[a-z0-9_]+:[a-z0-9_]+:\S+$/, 'a subject is <platform>:<kind>:<id>')).default([]),
  fetch: httpFetchConfigSchema.extend({
    type: z.literal('http_fetch'),
    /** Render pages whose URL matches in headless Chromium (opt-in per URL pattern; off when absent). */
    render: renderConfigSchema.optional(),
  }).prefault({ type: 'http_fetch' }),
  politeness: politenessConfigSchema.prefault({}),
  /** Send every request as one identity of a pool, within per-identity quotas (secrets from the environment). */
  identities: identitiesConfigSchema.optional(),
  /** Send every request through one forward proxy of a pool, within per-proxy quotas, rotated by health. */
  proxies: proxiesConfigSchema.optional(),
  parse: z.discriminatedUnion('type', [weiboApiConfigSchema, zhihuApiConfigSchema, webPagesConfigSchema]),
  /** Filters and enrichers over documents, in order, between the parser and the sink. */
  stages: z.array(documentStageSchema).default([]),
  sink: z.discriminatedUnion('type', [elasticsearchSinkConfigSchema, blackholeSinkConfigSchema]),
  schedule: z.discriminatedUnion('type', [fixedIntervalConfigSchema, poissonScheduleSchema]).prefault({ type: 'fixed_interval' }),
  /** Saved queries and sentiment spikes checked while the pipeline runs, notified once (elasticsearch sink only). */
  alerts: pipelineAlertsSchema.optional(),
})
  // Rules across sections, checked with the rest (`freshet validate` reports them with the key path).
  .superRefine((c, ctx) => {
    if (c.alerts && c.sink.type !== 'elasticsearch') {
      ctx.addIssue({ code: 'custom', path: ['alerts'], message: `alerts need the elasticsearch sink (they query the indexed posts), not ${c.sink.type}` });
    }
    // Deletion and move marks are partial documents: a plain index action would replace the page with one.
    if (c.parse.type === 'web_pages' && c.parse.mark_gone && c.sink.type === 'elasticsearch' && !c.sink.versioned_indices.includes('pages')) {
      ctx.addIssue({ code: 'custom', path: ['parse', 'mark_gone'], message: 'mark_gone needs the sink to keep pages versioned: add versioned_indices: [pages] to the sink' });
    }
    // Monitoring reads the stored posts back and merges into them: only a search index can.
    if (c.parse.type === 'weibo_api' && c.parse.monitor && c.sink.type !== 'elasticsearch') {
      ctx.addIssue({ code: 'custom', path: ['parse', 'monitor'], message: `monitor needs the elasticsearch sink (it reads and merges the stored posts), not ${c.sink.type}` });
    }
  })
  .transform(oneAttemptPerQuota);

export type PipelineConfig = z.infer<typeof pipelineSchema>;
export type PipelineInput = z.input<typeof pipelineSchema>;

export function pipelineJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'freshet pipeline',
    ...z.toJSONSchema(pipelineSchema, { io: 'input', unrepresentable: 'any' }),
  } as Record<string, unknown>;
}
