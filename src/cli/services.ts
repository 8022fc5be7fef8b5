import { redactUrl, redactUrlsIn } from '../core/redact';
import { applyTemplatesReport, loadTemplates, type AppliedTemplates } from '../search/templates';
import { createRedis, createSearch, openRedis, redisLabel } from './clients';
import type { Settings } from './env';
import type { Cluster, Redis } from 'ioredis';
import type { SearchConnection } from '../search/client';

export interface ServiceHealth {
  service: 'redis' | 'search';
  url: string;
  ok: boolean;
  version?: string;
  detail: string;
}

export async function redisHealth(redis: Redis | Cluster, url: string): Promise<ServiceHealth> {
  const shown = redactUrl(url);
  try {
    await openRedis(redis, url);
    const info = await redis.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    const aof = (await redis.config('GET', 'appendonly')) as string[];
    return { service: 'redis', url: shown, ok: true, version, detail: `appendonly ${aof[1] ?? '?'}` };
  } catch (err) {
    return { service: 'redis', url: shown, ok: false, detail: redactUrlsIn((err as Error).message) };
  }
}

export async function searchHealth(conn: SearchConnection, url: string): Promise<ServiceHealth> {
  try {
    const health = await conn.client.cluster.health();
    return {
      service: 'search', url: redactUrl(url), ok: health.status !== 'red', version: conn.info.version,
      detail: `${conn.info.distribution}, cluster ${health.cluster_name} ${health.status}, ${health.number_of_nodes} node(s)`,
    };
  } catch (err) {
    return { service: 'search', url: redactUrl(url), ok: false, version: conn.info.version, detail: redactUrlsIn((err as Error).message) };
  }
}

/** Redacted again as a whole: whatever a client put in an error message, no password is printed. */
export function formatHealth(rows: ServiceHealth[]): string {
  return redactUrlsIn(rows
    .map((r) => `${r.service.padEnd(7)} ${r.url.padEnd(30)} ${(r.version ?? '-').padEnd(8)} ${r.ok ? 'ok  ' : 'DOWN'}  ${r.detail}`)
    .join('\n'));
}

export async function checkServices(settings: Settings): Promise<ServiceHealth[]> {
  const redis = createRedis(settings);
  try {
    const rows = [await redisHealth(redis, redisLabel(settings))];
    try {
      const conn = await createSearch(settings);
      rows.push(await searchHealth(conn, settings.esUrl));
      await conn.client.close();
    } catch (err) {
      rows.push({ service: 'search', url: redactUrl(settings.esUrl), ok: false, detail: redactUrlsIn((err as Error).message) });
    }
    return rows;
  } finally {
    redis.disconnect();
  }
}

export async function applyMappings(settings: Settings, dir: string, replicas: number | undefined): Promise<AppliedTemplates> {
  const conn = await createSearch(settings);
  try {
    const overrides = replicas === undefined ? {} : { number_of_replicas: replicas };
    return await applyTemplatesReport(conn.client, loadTemplates(dir), { prefix: settings.indexPrefix, settings: overrides });
  } finally {
    await conn.client.close();
  }
}
