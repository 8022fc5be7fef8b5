import { readFileSync } from 'node:fs';
import { checkProxyUrl } from '../fetchers/proxy-config';

/**
 * A list of secrets from `<NAME>_FILE` (one per line, `#` comments) or else `<NAME>`
 * (comma-separated), blanks dropped; `from` names the variable it came from.
 */
function readList(name: string, env: NodeJS.ProcessEnv): { values: string[]; from: string } {
  const file = env[`${name}_FILE`];
  const raw = file ? readFileSync(file, 'utf8').split(/\r?\n/) : (env[name] ?? '').split(',');
  return { values: raw.map((t) => t.trim()).filter((t) => t !== '' && !t.startsWith('#')), from: file ? `${name}_FILE` : name };
}

/**
 * The secrets of an identity pool, from `FRESHET_TOKENS_<POOL>` (comma-separated) or the file
 * `FRESHET_TOKENS_<POOL>_FILE` (one per line, `#` comments). They go to the fetcher only.
 */
export function readTokens(pool: string, env: NodeJS.ProcessEnv): string[] {
  const name = `FRESHET_TOKENS_${pool.toUpperCase()}`;
  const { values: tokens } = readList(name, env);
  if (tokens.length === 0) throw new Error(`the pipeline sends requests as identities of pool "${pool}": set ${name} (comma-separated) or ${name}_FILE`);
  return tokens;
}

/**
 * The proxy URLs of a pool (credentials allowed: `http://user:pass@host:port`), from
 * `FRESHET_PROXIES_<POOL>` (comma-separated) or `FRESHET_PROXIES_<POOL>_FILE` (one per line, `#`
 * comments); none set is fine when the pipeline file lists `urls`. A bad entry is reported by its
 * position, never quoted (it may hold a password).
 */
export function readProxyUrls(pool: string, env: NodeJS.ProcessEnv): string[] {
  const { values: urls, from } = readList(`FRESHET_PROXIES_${pool.toUpperCase()}`, env);
  urls.forEach((u, i) => {
    const why = checkProxyUrl(u);
    if (why) throw new Error(`${from}: proxy ${i + 1} is not usable (${why})`);
  });
  return urls;
}
