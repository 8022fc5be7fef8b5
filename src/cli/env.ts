/** The one place that turns the environment into settings; everything else gets them injected. */
export interface Settings {
  redisUrl: string;
  /** Redis Cluster seed nodes (host:port); when set, they are used instead of `redisUrl`. */
  redisCluster?: { host: string; port: number }[];
  esUrl: string;
  esApiKey?: string;
  esUsername?: string;
  esPassword?: string;
  indexPrefix: string;
}

export const defaults = {
  redisUrl: 'redis://127.0.0.1:6390',
  esUrl: 'http://127.0.0.1:9250',
  indexPrefix: 'freshet-',
} as const;

export function readSettings(env: NodeJS.ProcessEnv): Settings {
  const pick = (key: string): string | undefined => {
    const v = env[key];
    return v === undefined || v === '' ? undefined : v;
  };
  const settings: Settings = {
    redisUrl: pick('FRESHET_REDIS_URL') ?? defaults.redisUrl,
    esUrl: (pick('FRESHET_ES_URL') ?? defaults.esUrl).replace(/\/+$/, ''),
    indexPrefix: pick('FRESHET_INDEX_PREFIX') ?? defaults.indexPrefix,
  };
  const apiKey = pick('FRESHET_ES_API_KEY');
  const username = pick('FRESHET_ES_USERNAME');
  const password = pick('FRESHET_ES_PASSWORD');
  const cluster = pick('FRESHET_REDIS_CLUSTER');
  if (cluster) settings.redisCluster = cluster.split(',').map((s) => s.trim()).filter(Boolean).map(parseSeed);
  if (apiKey) settings.esApiKey = apiKey;
  if (username) settings.esUsername = username;
  if (password) settings.esPassword = password;
  if (!/^[a-z0-9][a-z0-9_.-]*$/.test(settings.indexPrefix) && settings.indexPrefix !== '') {
    throw new Error(`FRESHET_INDEX_PREFIX "${settings.indexPrefix}" is not a valid index name prefix (lower case, digits, - _ .)`);
  }
  return settings;
}

function parseSeed(seed: string): { host: string; port: number } {
  const m = /^(.+):(\d{1,5})$/.exec(seed.replace(/^redis:\/\//, ''));
  const port = Number(m?.[2]);
  if (!m || !(port > 0 && port < 65536)) throw new Error(`FRESHET_REDIS_CLUSTER: "${seed}" is not host:port`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}
