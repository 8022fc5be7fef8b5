import type { SimResponse } from '../http-types';
import { htmlResponse, jsonResponse } from '../http-types';
import type { GoneKind, RestrictionKind } from '../lifecycle';

/**
 * What the site shows for a post that is gone. The deleted-stub text and `deleted: "1"` /
 * `user: null` are seen in captures (test/fixtures/weibo-real); the exact removal and restriction
 * wordings are the ones users quote (spec §1.2 style: "该微博因被投诉违反…已被删除", "半年可见",
 * "仅自己可见"); the single-post JSON envelope (`ok:0`, `errno`, `msg`) is [INF].
 */
const HELP = '查看帮助：<a href="https://t.cn/Rfd3rQV" data-hide=""><span class="surl-text">网页链接</span></a>';

export function goneText(kind: GoneKind | 'account_gone', restriction: RestrictionKind | null = null): string {
  switch (kind) {
    case 'deleted':
      return `抱歉，此微博已被作者删除。${HELP}`;
    case 'removed':
      return `该微博因被投诉违反《微博社区公约》的相关规定，已被删除。${HELP}`;
    case 'restricted':
      return restriction === 'half_year' ? `抱歉，博主设置了半年可见，此微博已不可见。${HELP}` : `抱歉，此微博仅自己可见，你暂时没有这条微博的查看权限哦。${HELP}`;
    case 'account_gone':
      return '该账号因被投诉违反法律法规和《微博社区公约》的相关规定，现已无法查看。';
  }
}

const ERRNO: Record<GoneKind | 'account_gone', string> = { deleted: '20101', removed: '20112', restricted: '20130', account_gone: '20003' };

/** `statuses/show` / `statuses/extend` for a gone post: HTTP 200, `ok:0` and the reason in `msg`. */
export function goneJson(kind: GoneKind | 'account_gone', restriction: RestrictionKind | null): SimResponse {
  return jsonResponse({ ok: 0, errno: ERRNO[kind], msg: goneText(kind, restriction).replace(/<[^>]+>/g, '') });
}

/** `/detail/{mid}` for a gone post: the page with the notice and no `$render_data`. */
export function goneHtml(kind: GoneKind | 'account_gone', restriction: RestrictionKind | null): SimResponse {
  return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>微博</title></head><body><div class="h5-4box"><p class="h5-4con">${goneText(kind, restriction)}</p></div></body></html>`);
}
