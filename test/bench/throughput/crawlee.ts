import { CheerioCrawler, Configuration, log, LogLevel } from '@crawlee/cheerio';
import { ARTICLE_LINK, articleUrls } from './html';
import { containerIdOf, extendUrl, longTextIds, nextCursor, profileUrl, timelineUrl, type Profile, type Timeline } from './paging';

interface UserData {
  kind: 'profile' | 'timeline' | 'extend';
  uid: string;
  containerId?: string;
  page?: number;
}

/**
 * Crawlee's CheerioCrawler as a user would set it up for this job: in-memory storage (nothing
 * persisted), maxConcurrency 64, JSON accepted as a body type (Crawlee parses it into `json`), the
 * adapter's paging rules. Returns the number of requests it completed.
 */
export async function crawleeRun(base: string, uids: string[], concurrency: number): Promise<number> {
  const { options, config } = setup(concurrency);
  let requests = 0;
  const crawler = new CheerioCrawler({
    ...options,
    additionalMimeTypes: ['application/json'],
    requestHandler: async ({ request, json, addRequests }) => {
      requests += 1;
      const d = request.userData as UserData;
      if (d.kind === 'profile') {
        const containerId = containerIdOf(d.uid, json as Profile);
        await addRequests([{ url: timelineUrl(base, d.uid, containerId, ''), userData: { kind: 'timeline', uid: d.uid, containerId, page: 1 } }]);
      } else if (d.kind === 'timeline') {
        const body = json as Timeline;
        const next = nextCursor(body, d.page!);
        await addRequests([
          ...longTextIds(body).map((id) => ({ url: extendUrl(base, id), userData: { kind: 'extend', uid: d.uid } })),
          ...(next === undefined ? [] : [{ url: timelineUrl(base, d.uid, d.containerId!, next), userData: { kind: 'timeline', uid: d.uid, containerId: d.containerId, page: d.page! + 1 } }]),
        ]);
      }
    },
  }, config);
  await crawler.run(uids.map((uid) => ({ url: profileUrl(base, uid), userData: { kind: 'profile', uid } })));
  return requests;
}

/** CheerioCrawler over the HTML pages: the parse plus enqueueLinks of article links (its queue de-duplicates). */
export async function crawleeHtml(base: string, count: number, concurrency: number): Promise<number> {
  const { options, config } = setup(concurrency);
  let requests = 0;
  const crawler = new CheerioCrawler({
    ...options,
    requestHandler: async ({ enqueueLinks }) => {
      requests += 1;
      await enqueueLinks({ regexps: [ARTICLE_LINK], strategy: 'same-origin' });
    },
  }, config);
  await crawler.run(articleUrls(base, count));
  return requests;
}

/** What both workloads set up alike: quiet logs, in-memory storage, no retries or sessions; a failed request fails the run. */
function setup(concurrency: number) {
  log.setLevel(LogLevel.WARNING);
  return {
    config: new Configuration({ persistStorage: false, purgeOnStart: true }),
    options: {
      maxConcurrency: concurrency,
      maxRequestRetries: 0,
      useSessionPool: false,
      persistCookiesPerSession: false,
      failedRequestHandler: ({ request }: { request: { url: string } }, error: Error) => {
        throw new Error(`crawlee request failed: ${request.url}: ${error.message}`);
      },
    },
  };
}
