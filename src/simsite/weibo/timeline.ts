import type { SimResponse } from '../http-types';
import { ok0, rawJsonResponse } from '../http-types';
import type { SimUser } from '../users';
import type { World } from '../world';
import type { EraFormat } from './era';
import type { RenderCache } from './render-cache';
import { visiblePosts, type Visible } from './visible';

export interface TimelineRequest {
  containerid: string;
  /** 1-based page, or null in since_id mode. */
  page: number | null;
  /** The cursor from `cardlistInfo.since_id`; empty string on the first call. */
  sinceId: string | null;
  pageSize: number;
  /** Anonymous clients stall after this many pages (silently, with ok:0). */
  capPages: number;
}

/** Position in the regular sequence of the newest post whose id is <= sinceId. */
function positionOfSinceId(world: World, u: number, v: Visible, sinceId: bigint): number {
  let lo = 0;
  let hi = v.regularCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (BigInt(world.post(u, v.indexAt(mid)).id) > sinceId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function timelineResponse(
  world: World, user: SimUser, req: TimelineRequest, nowMs: number, fmt: EraFormat, render: RenderCache,
): SimResponse {
  const u = user.index;
  const v = visiblePosts(world, u, nowMs);
  const cards: string[] = [];
  const card = (k: number, pinned: boolean): string => {
    const post = world.post(u, k);
    return `{"card_type":9,"card_type_name":"","itemid":"${req.containerid}_-_${post.id}","scheme":"https://m.weibo.cn/status/${post.bid}?mblogid=${post.bid}&luicode=10000011&lfid=${req.containerid}","show_type":0,"title":"","mblog":${render.mblogString(post, nowMs, pinned)}}`;
  };
  let start: number;
  let firstPage: boolean;
  let pageNo: number;
  if (req.sinceId) {
    if (!/^\d+$/.test(req.sinceId)) return ok0();
    start = positionOfSinceId(world, u, v, BigInt(req.sinceId));
    firstPage = false;
    pageNo = Math.floor(start / req.pageSize) + 1;
  } else {
    pageNo = Math.max(1, req.page ?? 1);
    firstPage = pageNo === 1;
    start = firstPage ? 0 : (pageNo - 1) * req.pageSize - (v.pinned >= 0 ? 1 : 0);
  }
  if (pageNo > req.capPages) return ok0();
  let take = req.pageSize;
  if (firstPage && v.pinned >= 0) {
    cards.push(card(v.pinned, true));
    take -= 1;
  }
  const end = Math.min(v.regularCount, start + take);
  for (let pos = start; pos < end; pos++) cards.push(card(v.indexAt(pos), false));
  if (cards.length === 0) return ok0();
  const more = end < v.regularCount && pageNo < req.capPages;
  const info: Record<string, unknown> = fmt.era === 'modern2022'
    ? { containerid: req.containerid, can_shared: 0, show_style: 1, title_top: '微博', page_type: '03' }
    : { containerid: req.containerid, v_p: 42, show_style: 1, total: v.count, page: more ? pageNo + 1 : null };
  // since_id is the id of the first post of the next page (an int: mids stay below 2^53).
  if (more) info.since_id = Number(world.post(u, v.indexAt(end)).id);
  const inner = `"cardlistInfo":${JSON.stringify(info)},"cards":[${cards.join(',')}],"scheme":"sinaweibo://cardlist?containerid=${req.containerid}"`;
  return rawJsonResponse(fmt.era === 'legacy2017' ? `{"ok":1,${inner}}` : `{"ok":1,"data":{${inner}}}`);
}
