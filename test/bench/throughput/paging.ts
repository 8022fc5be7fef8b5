/**
 * The weibo adapter's paging rules, shared by the contenders that are not freshet (the bare loop
 * and Crawlee) so every contender makes exactly the requests the adapter makes. The Scrapy spider
 * (scrapy_spider.py) carries the same rules in Python.
 */
export interface Timeline {
  ok?: number;
  data?: { cards?: { mblog?: { id?: string; isLongText?: boolean } }[]; cardlistInfo?: { page?: number | null; since_id?: number | string | null } };
}

export interface Profile {
  data?: { tabsInfo?: { tabs?: { tabKey?: string; containerid?: string }[] } };
}

export const profileUrl = (base: string, uid: string): string => `${base}/api/container/getIndex?type=uid&value=${uid}&containerid=100505${uid}`;
export const timelineUrl = (base: string, uid: string, containerId: string, cursor: string): string =>
  `${base}/api/container/getIndex?type=uid&value=${uid}&containerid=${containerId}${cursor}`;
export const extendUrl = (base: string, id: string): string => `${base}/statuses/extend?id=${id}`;

export function containerIdOf(uid: string, profile: Profile): string {
  return profile.data?.tabsInfo?.tabs?.find((t) => t.tabKey === 'weibo')?.containerid ?? `107603${uid}`;
}

/** Ids of the posts whose full text needs the long-text endpoint. */
export function longTextIds(body: Timeline): string[] {
  if (body.ok !== 1) return [];
  return (body.data?.cards ?? []).flatMap((c) => (c.mblog?.isLongText && c.mblog.id ? [c.mblog.id] : []));
}

/** The cursor of the page after `page` (a query suffix), or undefined when the timeline ends. */
export function nextCursor(body: Timeline, page: number): string | undefined {
  if (body.ok !== 1 || !body.data?.cards?.length || page >= 1000) return undefined;
  const info = body.data.cardlistInfo;
  const since = info?.since_id;
  return !info ? `&page=${page + 1}`
    : (typeof since === 'number' && since > 0) || (typeof since === 'string' && /^\d+$/.test(since)) ? `&since_id=${since}`
      : typeof info.page === 'number' && info.page > page ? `&page=${info.page}` : undefined;
}
