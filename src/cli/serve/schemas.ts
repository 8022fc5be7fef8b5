import { z } from 'zod';

/**
 * The JSON API of `freshet serve`: every request and answer is one of these schemas. The router
 * validates with them and docs/openapi.json is generated from them (`freshet serve --write-openapi`).
 */

export const errorBody = z.object({ error: z.string() }).meta({ id: 'Error' });

const counts = z.record(z.string(), z.number().int());

export const frontierStats = z.object({
  subjects: z.number().int(), due: z.number().int(), dueNow: z.number().int(), leased: z.number().int(), deadLetters: z.number().int(),
  visitsPerMin: z.number(), docsPerMin: z.number(),
}).meta({ id: 'FrontierStats', description: 'The frontier in Redis: subjects, scheduled, due now, leased, dead letters, throughput of the last 5 minutes.' });

export const controlState = z.object({
  paused: z.boolean(),
  pausedAtMs: z.number().int().optional(),
  drainAtMs: z.number().int().optional().describe('When a drain was last asked: the workers running then drain and stop.'),
}).meta({ id: 'ControlState' });

export const refused = z.object({ quota: z.number().int(), politeness: z.number().int(), robots: z.number().int() });

export const workerSummary = z.object({
  worker: z.string(), host: z.string(), pid: z.number().int(), startedAtMs: z.number().int(), atMs: z.number().int(),
  requests: z.number().int().describe('Requests sent to the sites.'),
  refused: refused.describe('Requests refused locally before they left.'),
  documents: z.object({ indexed: z.number().int(), dropped: z.number().int(), dead_lettered: z.number().int() }),
  jobs: z.number().int(), claimed: z.number().int(), inFlight: z.number().int(), paused: z.boolean(),
  failureCodes: counts, deadLettered: z.number().int(), pagesPerSec: z.number(),
}).meta({ id: 'WorkerSummary', description: 'A running worker as it last reported itself (every second).' });

export const pipelineOverview = z.object({
  name: z.string(), description: z.string().optional(), namespace: z.string(), parser: z.string(), schedule: z.string(),
  frontier: frontierStats.nullable(),
  control: controlState.nullable(),
  workers: z.array(workerSummary),
  totals: z.object({
    requests: z.number().int(), refused, indexed: z.number().int(), pagesPerSec: z.number().describe('Requests sent per second over the last few seconds, all workers.'),
    failureCodes: counts,
  }),
  deadLettersByCode: counts.describe('Codes of the newest dead letters (up to 1,000), counted.'),
}).meta({ id: 'PipelineOverview' });

export const pipelineList = z.object({ pipelines: z.array(pipelineOverview) }).meta({ id: 'PipelineList' });

export const poolMember = z.object({
  index: z.number().int(), used: z.number().int(), limit: z.number().int(), benchedUntilMs: z.number().int().optional(),
  state: z.enum(['available', 'at_quota', 'benched']),
});

export const poolStatus = z.object({
  pool: z.string(), limitPerWindow: z.number().int(), windowSecs: z.number().int(),
  members: z.array(poolMember).describe('Identities (never their secrets) by index; without the secrets in the environment, those the quota hash has seen.'),
});

export const limits = z.object({
  politeness: z.object({ minDelayMs: z.number().int(), maxConcurrencyPerOrigin: z.number().int(), maxWaitMs: z.number().int() }),
  origins: z.array(z.object({ origin: z.string(), nextAtMs: z.number().int().nullable(), inFlight: z.number().int() })),
  identities: poolStatus.nullable(),
  proxies: poolStatus.nullable(),
}).meta({ id: 'Limits', description: 'Per-origin politeness slots and per-identity (and per-proxy) quotas, as kept in Redis.' });

export const freshnessMeter = z.object({
  unindexedPosts: z.number().describe('Posts published but not yet indexed now (posterior mean), over the visited subjects.'),
  unindexedLow: z.number().describe('Lower end of the 90 % interval of unindexedPosts.'),
  unindexedHigh: z.number().describe('Upper end of the 90 % interval of unindexedPosts.'),
  unindexedMeanAgeHours: z.number().describe('Mean age of those posts, in hours: how late the index is now.'),
  predictedMeanDelayHours: z.number().describe("The plan's predicted mean publication-to-index delay of posts from now on."),
  unvisitedSubjects: z.number().int().describe('Subjects never visited yet: what they hold is unknown and not counted above.'),
}).meta({ id: 'FreshnessMeter', description: 'The freshness meter of `freshet status`, from the rate posteriors of the active subjects.' });

export const freshness = z.object({
  schedule: z.object({
    type: z.string(),
    objective: z.string().optional(),
    budgetPerHour: z.number().optional(),
    plannedPagesPerHour: z.number().optional(),
    estimatedPostsPerHour: z.number().optional(),
    predictedMeanDelayHours: z.number().optional(),
  }),
  meter: freshnessMeter.nullable().describe('null when the schedule has no rate model (not a poisson schedule); `reason` says so.'),
  reason: z.string().optional().describe('Why there is no meter.'),
  computedAtMs: z.number().int().describe('When the figures were computed: they read every subject\'s state, so a pipeline\'s are recomputed at most every 30 s.'),
}).meta({ id: 'Freshness', description: 'What `freshet status` shows of the schedule: the plan and the freshness meter (poisson schedules).' });

export const deadLetter = z.object({
  id: z.string(), code: z.string(), stage: z.string(), message: z.string(), atMs: z.number().int(),
  subject: z.string().optional(), docId: z.string().optional(), hasPayload: z.boolean(),
}).meta({ id: 'DeadLetter' });

export const deadLetterDetail = deadLetter.extend({ payload: z.unknown().optional() }).meta({ id: 'DeadLetterDetail' });

export const deadLetterList = z.object({
  total: z.number().int(), items: z.array(deadLetter), next: z.string().optional().describe('Pass as `before` for the next page.'),
}).meta({ id: 'DeadLetterList' });

export const requeueResult = z.object({
  id: z.string(), requeued: z.enum(['subject', 'document']),
  detail: z.string(),
}).meta({ id: 'RequeueResult' });

export const okResult = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });

export const seedRequest = z.strictObject({
  subjects: z.array(z.string().regex(/^[a-z0-9_]+:[a-z0-9_]+:\S+$/, 'expected <platform>:<kind>:<id>')).min(1).max(10_000),
}).meta({ id: 'SeedRequest' });

export const seedResult = z.object({ offered: z.number().int(), added: z.number().int() }).meta({ id: 'SeedResult' });

const sentiment = z.enum(['positive', 'neutral', 'negative']);
const interval = z.enum(['hour', 'day', 'week']);

export const searchQuery = z.strictObject({
  q: z.string().trim().min(1).describe('Words to search for (Chinese and English).'),
  since: z.string().optional().describe('30m, 24h, 7d, 2w or an ISO date.'),
  until: z.string().optional().describe('An ISO date.'),
  sentiment: sentiment.optional(), platform: z.string().optional(), author: z.string().optional(),
  size: z.coerce.number().int().min(1).max(100).default(10),
  interval: interval.default('day').describe('Width of the time facet.'),
});

const facet = z.array(z.object({ key: z.string(), count: z.number().int() }));

export const searchResult = z.object({
  total: z.number().int(),
  hits: z.array(z.object({
    id: z.string(), score: z.number(), fields: z.record(z.string(), z.unknown()),
    highlight: z.array(z.string()).describe('Fragments with the matched words between « and ».'),
  })),
  facets: z.object({ sentiment: facet, platform: facet, author: facet, time: facet }),
}).meta({ id: 'SearchResult' });

export const timelineQuery = z.strictObject({
  q: z.string().trim().default('').describe('Words to search for; empty: every post.'),
  since: z.string().optional(), until: z.string().optional(),
  sentiment: sentiment.optional(), platform: z.string().optional(), author: z.string().optional(),
  interval: interval.default('day'),
});

export const timelineResult = z.object({
  interval,
  points: z.array(z.object({
    t: z.number().int().describe('Start of the interval, ms since the epoch.'), posts: z.number().int(),
    positive: z.number().int(), neutral: z.number().int(), negative: z.number().int(), meanScore: z.number().nullable(),
  })),
}).meta({ id: 'Timeline', description: 'Post volume and sentiment per interval, from the first matching post to the last (empty intervals included).' });

export const deadLetterListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.string().regex(/^\d+-\d+$/).optional(),
});

export const health = z.object({ ok: z.boolean(), redis: z.boolean(), search: z.boolean() }).meta({ id: 'Health' });

export const nameParam = z.object({ name: z.string() });
export const deadLetterParams = z.object({ name: z.string(), id: z.string().regex(/^\d+-\d+$/) });
