import { redactUrl, redactUrlsIn } from '../core/redact';
import { applyTemplatesReport, loadTemplates, type AppliedTemplates } from '../search/templates';
import { createRedis, createSearch, redisLabel } from './clients';
import type { Settings } from './env';
import { redisHealth, searchHealth, type ServiceHealth } from './commands/health';

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
