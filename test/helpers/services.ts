import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { Redis } from 'ioredis';
import { readSettings, type Settings } from '../../src/cli/env';
import { connectSearch, type SearchConnection } from '../../src/search/client';

/**
 * Per-file isolation on the shared services: every test file works under its own Redis key
 * prefix and index prefix, so files run in parallel; `cleanup` removes what the file created.
 */
export function testSettings(): Settings {
  return readSettings(process.env);
}

export function uniquePrefix(label: string): string {
  return `t-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 24)}-${randomBytes(3).toString('hex')}-`;
}

export interface TestRedis {
  redis: Redis;
  prefix: string;
  cleanup(): Promise<void>;
}

/** Deletes every key matching a pattern (SCAN, never KEYS). */
export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Key namespaces a test put on a client besides its prefix (see `trackNamespace`). */
const extraNamespaces = new WeakMap<Redis, Set<string>>();

/** Marks a namespace used through this client, so the client's `cleanup` deletes its keys too. */
export function trackNamespace(redis: Redis, namespace: string): void {
  const set = extraNamespaces.get(redis) ?? new Set<string>();
  set.add(namespace);
  extraNamespaces.set(redis, set);
}

export async function useRedis(label: string): Promise<TestRedis> {
  const prefix = `freshet-test:${uniquePrefix(label)}`;
  const redis = new Redis(testSettings().redisUrl, { maxRetriesPerRequest: 2 });
  return {
    redis,
    prefix,
    async cleanup() {
      for (const ns of [prefix, ...(extraNamespaces.get(redis) ?? [])]) await deleteKeys(redis, `${ns}*`);
      redis.disconnect();
    },
  };
}

export interface TestSearch {
  conn: SearchConnection;
  client: Client;
  prefix: string;
  cleanup(): Promise<void>;
}

export async function useSearch(label: string): Promise<TestSearch> {
  const s = testSettings();
  const conn = await connectSearch({ url: s.esUrl });
  const prefix = uniquePrefix(label);
  return {
    conn,
    client: conn.client,
    prefix,
    async cleanup() {
      // Delete by name: Elasticsearch refuses wildcard deletes by default.
      const indices = await conn.client.cat.indices({ index: `${prefix}*`, format: 'json', h: 'index' });
      const names = indices.map((i) => i.index).filter((n): n is string => typeof n === 'string');
      if (names.length > 0) await conn.client.indices.delete({ index: names.join(',') });
      const templates = await conn.client.indices.getIndexTemplate({ name: `${prefix}*` }).catch(() => ({ index_templates: [] }));
      for (const t of templates.index_templates) await conn.client.indices.deleteIndexTemplate({ name: t.name });
      await conn.client.close();
    },
  };
}
