import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Client } from '@elastic/elasticsearch';
import { connectSearch } from '../../../src/search/client';
import { projectRoot } from '../lib/results';

/** The shared Redis and search node (FRESHET_SERVICES=external), with this run's keys and indices removed on close. */
export interface BenchServices {
  redis: Redis;
  search: Client;
  mappingsDir: string;
  /** Index prefix and Redis namespace of one part of the run (new ones on every call). */
  names(part: string): { prefix: string; namespace: string };
  close(): Promise<void>;
}

export async function benchServices(): Promise<BenchServices> {
  const redis = new Redis(process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390');
  const search = (await connectSearch({ url: process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250' })).client;
  const used: { prefix: string; namespace: string }[] = [];
  return {
    redis, search, mappingsDir: join(projectRoot(), 'mappings'),
    names(part) {
      // One set of names per call: two crawls of one part (two worlds) must not share an index or a frontier.
      const n = { prefix: `bench-social-${part}${used.length}-${process.pid}-`, namespace: `freshet-bench:social-${part}${used.length}-${process.pid}` };
      used.push(n);
      return n;
    },
    async close() {
      for (const { prefix, namespace } of used) {
        await search.indices.delete({ index: `${prefix}*`, allow_no_indices: true, expand_wildcards: 'all' }).catch(() => undefined);
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      }
      redis.disconnect();
      await search.close();
    },
  };
}
