import { load } from 'cheerio/slim';
import { Agent, request } from 'undici';
import { ARTICLE_LINK, articleUrls } from './html';
import { containerIdOf, extendUrl, longTextIds, nextCursor, profileUrl, timelineUrl, type Profile, type Timeline } from './paging';

/** The bare loop: undici with 64 connections, JSON.parse, the same paging rules; no frontier, no sink. */
export async function bareLoop(base: string, uids: string[], concurrency: number): Promise<number> {
  const agent = new Agent({ connections: concurrency, pipelining: 1 });
  let requests = 0;
  const get = async (url: string): Promise<unknown> => {
    requests += 1;
    const res = await request(url, { dispatcher: agent });
    return JSON.parse(await res.body.text());
  };
  let next = 0;
  const worker = async () => {
    while (next < uids.length) {
      const uid = uids[next++]!;
      const containerId = containerIdOf(uid, await get(profileUrl(base, uid)) as Profile);
      let cursor: string | undefined = '';
      for (let page = 1; cursor !== undefined; page++) {
        const body = await get(timelineUrl(base, uid, containerId, cursor)) as Timeline;
        for (const id of longTextIds(body)) await get(extendUrl(base, id));
        cursor = nextCursor(body, page);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await agent.close();
  return requests;
}

/**
 * The bare loop over HTML pages: undici with 64 connections, cheerio (htmlparser2) parse, the
 * article links resolved and checked against a seen set; no frontier, no extraction, no sink.
 */
export async function bareHtml(base: string, count: number, concurrency: number): Promise<number> {
  const agent = new Agent({ connections: concurrency, pipelining: 1 });
  const queue = articleUrls(base, count);
  const seen = new Set(queue);
  let requests = 0;
  const worker = async () => {
    for (let url = queue.pop(); url !== undefined; url = queue.pop()) {
      requests += 1;
      const res = await request(url, { dispatcher: agent });
      const $ = load(await res.body.text());
      for (const a of $('a[href]').toArray()) {
        const link = new URL(a.attribs['href']!, url).href;
        if (ARTICLE_LINK.test(link) && !seen.has(link)) {
          seen.add(link);
          queue.push(link);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await agent.close();
  return requests;
}
