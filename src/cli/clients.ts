import { Redis } from 'ioredis';
import { connectSearch, type SearchConnection } from '../search/client';
import type { Settings } from './env';

/** Clients are created here and nowhere else, then injected. */
export function createRedis(settings: Settings): Redis {
  return new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 });
}

export function createSearch(settings: Settings): Promise<SearchConnection> {
  return connectSearch({
    url: settings.esUrl,
    ...(settings.esApiKey ? { apiKey: settings.esApiKey } : {}),
    ...(settings.esUsername ? { username: settings.esUsername, password: settings.esPassword ?? '' } : {}),
  });
}
