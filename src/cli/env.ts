/** The one place that turns the environment into settings; everything else gets them injected. */
export interface Settings {
  redisUrl: string;
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
  if (apiKey) settings.esApiKey = apiKey;
  if (username) settings.esUsername = username;
  if (password) settings.esPassword = password;
  if (!/^[a-z0-9][a-z0-9_.-]*$/.test(settings.indexPrefix) && settings.indexPrefix !== '') {
    throw new Error(`FRESHET_INDEX_PREFIX "${settings.indexPrefix}" is not a valid index name prefix (lower case, digits, - _ .)`);
  }
  return settings;
}
