import { Cluster, Redis } from 'ioredis';
import { connectSearch, type SearchConnection } from '../search/client';
import type { Settings } from './env';

/**
 * Clients are created here and nowhere else, then injected. With FRESHET_REDIS_CLUSTER the
 * frontier runs on a Redis Cluster: its scripts touch one hash slot each, so the code is the same.
 */
export function createRedis(settings: Settings): Redis | Cluster {
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 };
  const client = settings.redisCluster && settings.redisCluster.length > 0
    ? new Cluster(settings.redisCluster, { lazyConnect: true, redisOptions: options })
    : new Redis(settings.redisUrl, options);
  // While Redis is away every command fails, and the runner logs that once with its code; left
  // unheard, ioredis prints each reconnection error to stderr, outside the JSON log.
  client.on('error', () => undefined);
  return client;
}

/** What to show for the Redis in use (health, logs). */
export function redisLabel(settings: Settings): string {
  return settings.redisCluster?.length ? `cluster ${settings.redisCluster.map((n) => `${n.host}:${n.port}`).join(',')}` : settings.redisUrl;
}

export function createSearch(settings: Settings): Promise<SearchConnection> {
  return connectSearch({
    url: settings.esUrl,
    ...(settings.esApiKey ? { apiKey: settings.esApiKey } : {}),
    ...(settings.esUsername ? { username: settings.esUsername, password: settings.esPassword ?? '' } : {}),
  });
}
