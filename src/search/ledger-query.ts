import type { Client } from '@elastic/elasticsearch';

/**
 * What the completeness ledger needs from the index, per watched subject: the post count its
 * profile declared (users document: `statuses_count`, read at `crawled_at` = T) and the posts the
 * index held at T — published by T and not yet missed by then (active, or first missed after T) —
 * so both sides count the same moment; plus the tombstoned and active totals now.
 */
export interface SubjectCounts {
  subject: string;
  declared?: number;
  declaredAtMs?: number;
  /** Posts indexed that were there at declaredAtMs (all active posts when nothing was declared). */
  held: number;
  active: number;
  tombstoned: number;
}

export interface LedgerIndices {
  posts: string;
  users: string;
  requestTimeoutMs?: number;
}

/** `weibo:user:123` → the users document id `weibo:123`. */
export function profileDocId(subject: string): string {
  const [platform, , id] = subject.split(':');
  return `${platform}:${id ?? ''}`;
}

interface UserSource {
  statuses_count?: number;
  crawled_at?: string;
}

interface CountsAggs {
  held?: { doc_count: number };
  active?: { doc_count: number };
}

const BATCH = 100;

/** The counts of `subjects`, a few searches per hundred subjects. */
export async function subjectCounts(client: Client, ix: LedgerIndices, subjects: readonly string[]): Promise<SubjectCounts[]> {
  const out: SubjectCounts[] = [];
  const opts = { requestTimeout: ix.requestTimeoutMs ?? 60_000, maxRetries: 0 };
  for (let i = 0; i < subjects.length; i += BATCH) {
    const batch = subjects.slice(i, i + BATCH);
    const users = await client.mget<UserSource>({ index: ix.users, ids: batch.map(profileDocId), _source: ['statuses_count', 'crawled_at'] }, opts)
      .catch((err: { meta?: { statusCode?: number } }) => {
        if (err.meta?.statusCode === 404) return { docs: [] };
        throw err;
      });
    const declared = new Map<string, UserSource>();
    for (const d of users.docs) if ('found' in d && d.found && d._source) declared.set(d._id, d._source);
    const searches = batch.flatMap((subject) => {
      const u = declared.get(profileDocId(subject));
      const at = u?.crawled_at;
      const held = at === undefined ? { term: { status: 'active' } } : {
        bool: {
          filter: [{ range: { created_at: { lte: at } } }],
          should: [{ term: { status: 'active' } }, { range: { first_missing_at: { gt: at } } }],
          minimum_should_match: 1,
        },
      };
      return [
        { index: ix.posts, ignore_unavailable: true, allow_no_indices: true },
        { size: 0, track_total_hits: true, query: { term: { subject } }, aggs: { held: { filter: held }, active: { filter: { term: { status: 'active' } } } } },
      ];
    });
    const res = await client.msearch({ searches }, opts);
    batch.forEach((subject, k) => {
      const r = res.responses[k];
      if (!r || 'error' in r) throw new Error(`ledger counts of ${subject}: ${r && 'error' in r ? JSON.stringify(r.error).slice(0, 200) : 'no answer'}`);
      const total = typeof r.hits.total === 'number' ? r.hits.total : (r.hits.total?.value ?? 0);
      const aggs = r.aggregations as CountsAggs | undefined;
      const active = aggs?.active?.doc_count ?? 0;
      const u = declared.get(profileDocId(subject));
      const at = u?.crawled_at === undefined ? undefined : Date.parse(u.crawled_at);
      out.push({
        subject, held: aggs?.held?.doc_count ?? 0, active, tombstoned: total - active,
        ...(typeof u?.statuses_count === 'number' ? { declared: u.statuses_count } : {}),
        ...(at !== undefined && Number.isFinite(at) ? { declaredAtMs: at } : {}),
      });
    });
  }
  return out;
}
