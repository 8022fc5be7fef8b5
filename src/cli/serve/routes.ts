import type { Client } from '@elastic/elasticsearch';
import type { z } from 'zod';
import type { Clock } from '../../core/clock';
import { newSubjectState, type Doc } from '../../core/envelope';
import { sinkConfigOf } from '../../runner/build';
import { bulkItemKind, sendBulk } from '../../sinks/bulk';
import { documentLines } from '../../sinks/elasticsearch';
import { searchFaceted, timeline } from '../../search/facets';
import { parseSince, type SearchFilters } from '../../search/full-text';
import { CrawlViews, deadLetterView, type ServedPipeline } from './crawl-views';
import { HttpError, type Route } from './http';
import * as S from './schemas';

export interface ServeDeps {
  pipelines: ReadonlyMap<string, ServedPipeline>;
  views: CrawlViews;
  /** The search node; without one, search and requeue of documents answer 503. */
  search?: Client;
  indexPrefix: string;
  clock: Clock;
  /** Whether Redis and the search node answer now. */
  health(): Promise<{ redis: boolean; search: boolean }>;
}

function pipelineOf(deps: ServeDeps, name: string): ServedPipeline {
  const p = deps.pipelines.get(name);
  if (!p) throw new HttpError(404, `no pipeline "${name}" (served: ${[...deps.pipelines.keys()].join(', ')})`);
  return p;
}

function searchOf(deps: ServeDeps): Client {
  if (!deps.search) throw new HttpError(503, 'no search node configured');
  return deps.search;
}

function filtersOf(q: { since?: string | undefined; until?: string | undefined; sentiment?: SearchFilters['sentiment']; platform?: string | undefined; author?: string | undefined }, nowMs: number): SearchFilters {
  const f: SearchFilters = {};
  try {
    if (q.since) f.sinceMs = parseSince(q.since, nowMs);
    if (q.until) f.untilMs = parseSince(q.until, nowMs);
  } catch (err) {
    throw new HttpError(400, `since/until: ${(err as Error).message}`);
  }
  if (q.sentiment) f.sentiment = q.sentiment;
  if (q.platform) f.platform = q.platform;
  if (q.author) f.author = q.author;
  return f;
}

/** The indices searched: posts and pages of the served prefix. */
export function searchIndices(prefix: string): string {
  return `${prefix}posts,${prefix}pages`;
}

/** Requeues one dead letter: a document is indexed again, a subject is due now; the entry goes once that worked. */
async function requeue(deps: ServeDeps, p: ServedPipeline, id: string): Promise<z.infer<typeof S.requeueResult>> {
  const entry = await p.frontier.deadLetters.get(id);
  if (!entry) throw new HttpError(404, `no dead letter ${id}`);
  const f = entry.fields;
  if (f['payload'] !== undefined) {
    const doc = JSON.parse(f['payload']) as Doc;
    const sink = sinkConfigOf(p.config);
    if (sink.type !== 'elasticsearch') throw new HttpError(422, `the pipeline's sink (${sink.type}) does not write to a search node`);
    const index = `${deps.indexPrefix}${doc.index}`;
    // Written as the sink writes it: a merged or versioned document keeps its stored history.
    const [item] = await sendBulk(searchOf(deps), Buffer.from(documentLines(sink, deps.indexPrefix, doc)), sink.request_timeout_ms, true);
    if (!item || bulkItemKind(item.status) !== 'ok') {
      throw new HttpError(422, `the search node refused the document again: ${item?.error ? `${item.error.type}: ${item.error.reason}` : `status ${item?.status ?? 'none'}`}`);
    }
    await p.frontier.deadLetters.remove(id);
    return { id, requeued: 'document', detail: `indexed ${doc.id} into ${index}` };
  }
  const subject = f['subject'];
  if (!subject) throw new HttpError(422, 'this dead letter has neither a document nor a subject to requeue');
  const now = deps.clock.nowMs();
  let detail: string;
  if ((await p.frontier.frontier.reschedule([subject], now)) > 0) detail = `${subject} is due now`;
  else if ((await p.frontier.frontier.getState(subject)) === undefined) {
    await p.frontier.frontier.offer([{ subject, state: newSubjectState(now) }]);
    detail = `${subject} was unknown: offered, due now`;
  } else throw new HttpError(409, `${subject} is being visited now (leased); try again when the visit ends`);
  await p.frontier.deadLetters.remove(id);
  return { id, requeued: 'subject', detail };
}

/** Every operation of the JSON API (the router's table and the OpenAPI file's source). */
export function apiRoutes(deps: ServeDeps): Route[] {
  return [
    {
      method: 'GET', path: '/api/health', operationId: 'health', tag: 'server', summary: 'Whether Redis and the search node answer',
      response: S.health, handle: async () => {
        const h = await deps.health();
        return { ok: h.redis && (h.search || !deps.search), ...h };
      },
    },
    {
      method: 'GET', path: '/api/pipelines', operationId: 'listPipelines', tag: 'crawl', summary: 'Every served pipeline: frontier, control, live workers, totals',
      response: S.pipelineList, handle: async () => ({ pipelines: await Promise.all([...deps.pipelines.values()].map((p) => deps.views.overview(p))) }),
    },
    {
      method: 'GET', path: '/api/pipelines/{name}', operationId: 'getPipeline', tag: 'crawl', summary: 'One pipeline: frontier stats, control state, workers, totals',
      params: S.nameParam, response: S.pipelineOverview, handle: ({ params }) => deps.views.overview(pipelineOf(deps, params['name']!)),
    },
    {
      method: 'GET', path: '/api/pipelines/{name}/limits', operationId: 'getLimits', tag: 'crawl', summary: 'Per-origin politeness slots and per-identity quotas',
      params: S.nameParam, response: S.limits, handle: ({ params }) => deps.views.limits(pipelineOf(deps, params['name']!)),
    },
    {
      method: 'GET', path: '/api/pipelines/{name}/freshness', operationId: 'getFreshness', tag: 'crawl', summary: 'The schedule\'s freshness figures',
      params: S.nameParam, response: S.freshness, handle: ({ params }) => deps.views.freshness(pipelineOf(deps, params['name']!)),
    },
    ...(['pause', 'resume', 'drain'] as const).map((verb): Route => ({
      method: 'POST', path: `/api/pipelines/{name}/${verb}`, operationId: `${verb}Pipeline`, tag: 'control',
      summary: verb === 'pause' ? 'Every worker stops claiming (within a second) until resumed; visits in flight finish'
        : verb === 'resume' ? 'Every worker claims again' : 'Every worker running now stops claiming, finishes what it holds and exits',
      params: S.nameParam, response: S.controlState,
      handle: async ({ params }) => {
        const p = pipelineOf(deps, params['name']!);
        await p.control[verb]();
        return p.control.state();
      },
    })),
    {
      method: 'POST', path: '/api/pipelines/{name}/seed', operationId: 'seed', tag: 'control', summary: 'Offer subjects to the frontier (known ones are left alone)',
      params: S.nameParam, body: S.seedRequest, response: S.seedResult,
      handle: ({ params, body }) => deps.views.seed(pipelineOf(deps, params['name']!), (body as z.infer<typeof S.seedRequest>).subjects),
    },
    {
      method: 'GET', path: '/api/pipelines/{name}/dead-letters', operationId: 'listDeadLetters', tag: 'dead letters', summary: 'Dead letters, newest first',
      params: S.nameParam, query: S.deadLetterListQuery, response: S.deadLetterList,
      handle: async ({ params, query }) => {
        const p = pipelineOf(deps, params['name']!);
        const q = query as z.infer<typeof S.deadLetterListQuery>;
        const [total, rows] = await Promise.all([p.frontier.deadLetters.length(), p.frontier.deadLetters.list(q.limit, q.before)]);
        const items = rows.map((r) => deadLetterView(r.id, r.fields));
        return { total, items, ...(rows.length === q.limit ? { next: rows[rows.length - 1]!.id } : {}) };
      },
    },
    {
      method: 'GET', path: '/api/pipelines/{name}/dead-letters/{id}', operationId: 'getDeadLetter', tag: 'dead letters', summary: 'One dead letter with its payload',
      params: S.deadLetterParams, response: S.deadLetterDetail,
      handle: async ({ params }) => {
        const entry = await pipelineOf(deps, params['name']!).frontier.deadLetters.get(params['id']!);
        if (!entry) throw new HttpError(404, `no dead letter ${params['id']}`);
        const payload = entry.fields['payload'];
        return { ...deadLetterView(entry.id, entry.fields), ...(payload !== undefined ? { payload: JSON.parse(payload) as unknown } : {}) };
      },
    },
    {
      method: 'POST', path: '/api/pipelines/{name}/dead-letters/{id}/requeue', operationId: 'requeueDeadLetter', tag: 'dead letters',
      summary: 'Index a dead-lettered document again, or make a dead-lettered subject due now; the entry is removed once that worked',
      params: S.deadLetterParams, response: S.requeueResult, handle: ({ params }) => requeue(deps, pipelineOf(deps, params['name']!), params['id']!),
    },
    {
      method: 'DELETE', path: '/api/pipelines/{name}/dead-letters/{id}', operationId: 'dropDeadLetter', tag: 'dead letters', summary: 'Drop one dead letter',
      params: S.deadLetterParams, response: S.okResult,
      handle: async ({ params }) => {
        if (!(await pipelineOf(deps, params['name']!).frontier.deadLetters.remove(params['id']!))) throw new HttpError(404, `no dead letter ${params['id']}`);
        return { ok: true as const };
      },
    },
    {
      method: 'GET', path: '/api/search', operationId: 'search', tag: 'search', summary: 'Full-text search with highlights and facets (sentiment, platform, author, time)',
      query: S.searchQuery, response: S.searchResult,
      handle: ({ query }) => {
        const q = query as z.infer<typeof S.searchQuery>;
        return searchFaceted(searchOf(deps), searchIndices(deps.indexPrefix), q.q, q.size, filtersOf(q, deps.clock.nowMs()), q.interval);
      },
    },
    {
      method: 'GET', path: '/api/timeline', operationId: 'timeline', tag: 'search', summary: 'Post volume and sentiment over time for a query',
      query: S.timelineQuery, response: S.timelineResult,
      handle: async ({ query }) => {
        const q = query as z.infer<typeof S.timelineQuery>;
        return { interval: q.interval, points: await timeline(searchOf(deps), `${deps.indexPrefix}posts`, q.q, q.interval, filtersOf(q, deps.clock.nowMs())) };
      },
    },
  ];
}
