import { Agent, request } from 'undici';
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
