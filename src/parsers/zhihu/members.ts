import type { Doc } from '../../core/envelope';
import { ErrorCodes, FreshetError } from '../../core/errors';
import { parseJsonObject } from '../json';

/** The parts of a v4 member (spec §2) that freshet reads. */
export interface Member {
  id?: string;
  url_token?: string;
  name?: string;
  headline?: string;
  /** 1 male, 0 female, -1 unknown. */
  gender?: number;
  follower_count?: number;
  following_count?: number;
  answer_count?: number;
  locations?: { name?: string }[];
}

export interface MemberPage {
  members: Member[];
  /** `paging.is_end`: the only reliable end signal (`next` is always present, even past the end). */
  isEnd: boolean;
  totals: number | undefined;
}

/** The `include` the 2017-era crawlers send for list items; it adds the counts to each member. */
export const LIST_INCLUDE = 'data[*].answer_count,articles_count,gender,follower_count,is_followed,is_following';
export const MEMBER_INCLUDE = 'locations,employments,gender,educations,business,voteup_count,follower_count,following_count,answer_count,articles_count';


export function parseMember(text: string, url: string): Member {
  const body = parseJsonObject(text, url);
  if (typeof body['url_token'] !== 'string') throw new FreshetError(ErrorCodes.parseShape, 'non_retryable', `no member in ${url}`, { url });
  return body as Member;
}

export function parseMemberPage(text: string, url: string): MemberPage {
  const body = parseJsonObject(text, url);
  const paging = body['paging'] as { is_end?: unknown; totals?: unknown } | undefined;
  const data = Array.isArray(body['data']) ? (body['data'] as Member[]) : [];
  return {
    members: data.filter((m) => typeof m.url_token === 'string' && m.url_token !== ''),
    // A missing paging block is treated as the end rather than as a reason to keep asking.
    isEnd: paging?.is_end !== false,
    totals: typeof paging?.totals === 'number' ? paging.totals : undefined,
  };
}

const GENDERS: Record<number, string> = { 1: 'm', 0: 'f' };

export function memberDoc(m: Member, atMs: number, subject: string, status: 'active' | 'zombie' = 'active'): Doc {
  return {
    index: 'users',
    id: `zhihu:${m.id ?? m.url_token}`,
    body: {
      platform: 'zhihu', id: m.id ?? m.url_token, subject, screen_name: m.name, gender: m.gender === undefined ? undefined : GENDERS[m.gender],
      description: m.headline || undefined, location: m.locations?.[0]?.name, followers_count: m.follower_count,
      follow_count: m.following_count, statuses_count: m.answer_count, crawled_at: new Date(atMs).toISOString(), status,
    },
  };
}
