import { readFileSync } from 'node:fs';

/**
 * The secrets of an identity pool, from `FRESHET_TOKENS_<POOL>` (comma-separated) or the file
 * `FRESHET_TOKENS_<POOL>_FILE` (one per line, `#` comments). They go to the fetcher only.
 */
export function readTokens(pool: string, env: NodeJS.ProcessEnv): string[] {
  const name = `FRESHET_TOKENS_${pool.toUpperCase()}`;
  const file = env[`${name}_FILE`];
  const raw = file ? readFileSync(file, 'utf8').split(/\r?\n/) : (env[name] ?? '').split(',');
  const tokens = raw.map((t) => t.trim()).filter((t) => t !== '' && !t.startsWith('#'));
  if (tokens.length === 0) throw new Error(`the pipeline sends requests as identities of pool "${pool}": set ${name} (comma-separated) or ${name}_FILE`);
  return tokens;
}
