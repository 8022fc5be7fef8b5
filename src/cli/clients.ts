import { Cluster, Redis } from 'ioredis';
import { connectSearch, type SearchConnection } from '../search/client';
import type { Settings } from './env';

/**
 * Clients are created here and nowhere else, then injected. With FRESHET_REDIS_CLUSTER the
 * frontier runs on a Redis Cluster: its scripts touch one hash slot each, so the code is the same.
 */
export function createRedis(settings: Settings): Redis | Cluster {
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 };
  if (settings.redisCluster && settings.redisCluster.length > 0) {
    return new Cluster(settings.redisCluster, { lazyConnect: true, redisOptions: options });
  }
  return new Redis(settings.redisUrl, options);
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
