import type { RouteHandler, SimRequest, SimResponse } from './http-types';
import { WeiboSite, type WeiboOptions } from './weibo/routes';
import type { World } from './world';

/** Options of the non-microblog sites (Q&A, forums, articles). */
export interface SiteOptions {
  qaPageSizeDefault: number;
}

export interface Sites {
  handlers: RouteHandler[];
  /** Extra ground-truth endpoints of these sites (forum posts, article texts). */
  truth: (req: SimRequest) => SimResponse | null;
}

export function buildSites(world: World, weibo: WeiboOptions, _opts: Partial<SiteOptions>): Sites {
  const w = new WeiboSite(world, weibo);
  return {
    handlers: [(req) => w.handle(req)],
    truth: () => null,
  };
}
