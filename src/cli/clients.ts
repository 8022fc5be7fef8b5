import { Cluster, Redis } from 'ioredis';
import { ErrorCodes, FreshetError } from '../core/errors';
import { redactUrl, redactUrlsIn } from '../core/redact';
import { connectSearch, type SearchConnection } from '../search/client';
import type { Settings } from './env';

/**
 * Clients are created here and nowhere else, then injected. With FRESHET_REDIS_CLUSTER the
 * frontier runs on a Redis Cluster: its scripts touch one hash slot each, so the code is the same.
 */
export function createRedis(settings: Settings): Redis | Cluster {
  // disconnectTimeout: a socket that already failed never closes again, and ioredis waits this
  // long (2 s by default) before destroying it on disconnect, holding the process open meanwhile.
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000, disconnectTimeout: 300 };
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

/**
 * Connects a client made by `createRedis` and checks it answers. ioredis rejects a failed connect
 * with "Connection is closed." and keeps reconnecting in the background (which keeps the process
 * alive); here the client is disconnected on failure and the error names Redis and what the
 * server or the socket said (ECONNREFUSED, WRONGPASS, NOAUTH).
 */
export async function openRedis(client: Redis | Cluster, label: string): Promise<void> {
  let last: Error | undefined;
  const heard = (err: Error) => {
    last = err;
  };
  client.on('error', heard);
  try {
    if (client.status === 'wait') await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    const said = last?.message ?? (err as Error).message;
    const refused = /^(WRONGPASS|NOAUTH|NOPERM|ERR AUTH|ERR invalid password)/.test(said);
    throw new FreshetError(ErrorCodes.redisUnavailable, 'critical',
      `Redis at ${redactUrl(label)} ${refused ? 'refused the connection' : 'is unreachable'}: ${redactUrlsIn(said)}`, {}, err);
  } finally {
    client.off('error', heard);
  }
}

/** A connected Redis client, or a one-line error naming Redis and its answer (nothing left open). */
export async function connectRedis(settings: Settings): Promise<Redis | Cluster> {
  const client = createRedis(settings);
  await openRedis(client, redisLabel(settings));
  return client;
}

export function createSearch(settings: Settings): Promise<SearchConnection> {
  return connectSearch({
    url: settings.esUrl,
    ...(settings.esApiKey ? { apiKey: settings.esApiKey } : {}),
    ...(settings.esUsername ? { username: settings.esUsername, password: settings.esPassword ?? '' } : {}),
  });
}
