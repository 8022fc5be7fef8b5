import type { Adapter } from './adapter';
import type { PageReader } from './web-page-read';
import { WebPagesAdapter, type WebPageCounters, type WebPagesConfig } from './web-pages';
import { WeiboApiAdapter, type WeiboApiConfig } from './weibo-api';
import { ZhihuApiAdapter, type ZhihuApiConfig } from './zhihu-api';

export type ParseConfig = WeiboApiConfig | ZhihuApiConfig | WebPagesConfig;

/** What the web_pages parser is given besides its config: the crawl's clock and where it counts refusals and 304s. */
export interface WebPagesDeps {
  nowMs(): number;
  counters: WebPageCounters;
}

/**
 * The parser of a pipeline. `pages`: where web pages are read (page worker threads), when not on
 * the calling thread.
 */
export function buildAdapter(config: ParseConfig, pages?: PageReader, web?: WebPagesDeps): Adapter {
  switch (config.type) {
    case 'weibo_api':
      return new WeiboApiAdapter(config);
    case 'zhihu_api':
      return new ZhihuApiAdapter(config);
    case 'web_pages':
      return new WebPagesAdapter(config, pages, web?.nowMs, web?.counters);
  }
}
