import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProxyUrls } from '../../../src/cli/tokens';
import { checkProxyUrl, proxiesConfigSchema, redactProxyUrl } from '../../../src/fetchers/proxy-config';

describe('proxy URLs', () => {
  it('redacts credentials, keeps scheme, host and port', () => {
    expect(redactProxyUrl('http://user:s3cret@10.0.0.1:3128')).toBe('http://[redacted]@10.0.0.1:3128');
    expect(redactProxyUrl('http://:tok@proxy.example:8080/')).toBe('http://[redacted]@proxy.example:8080');
    expect(redactProxyUrl('https://proxy.example')).toBe('https://proxy.example');
    expect(redactProxyUrl('not a url user:pw')).toBe('[unparseable proxy URL]');
  });

  it('accepts http(s) proxies without a path only', () => {
    expect(checkProxyUrl('http://u:p@127.0.0.1:8080')).toBeUndefined();
    expect(checkProxyUrl('socks5://127.0.0.1:1080')).toMatch(/scheme/);
    expect(checkProxyUrl('http://127.0.0.1:8080/x')).toMatch(/path/);
    expect(checkProxyUrl('127.0.0.1:8080')).toBeDefined();
  });

  it('a pipeline file may list proxies but not their credentials', () => {
    expect(proxiesConfigSchema.parse({ pool: 'p', urls: ['http://127.0.0.1:3128'] }).requests_per_window).toBe(1000);
    expect(proxiesConfigSchema.safeParse({ pool: 'p', urls: ['http://u:pw@127.0.0.1:3128'] }).success).toBe(false);
    expect(proxiesConfigSchema.safeParse({ pool: 'p', extra: 1 }).success).toBe(false);
  });

  it('reads proxies from the environment or a file, and names a bad one by position without quoting it', () => {
    expect(readProxyUrls('eu', { FRESHET_PROXIES_EU: 'http://a:b@127.0.0.1:1, http://127.0.0.1:2' })).toEqual(['http://a:b@127.0.0.1:1', 'http://127.0.0.1:2']);
    const file = join(mkdtempSync(join(tmpdir(), 'freshet-proxies-')), 'proxies');
    writeFileSync(file, '# pool\nhttp://x:y@127.0.0.1:3\n\n');
    expect(readProxyUrls('eu', { FRESHET_PROXIES_EU: 'ignored', FRESHET_PROXIES_EU_FILE: file })).toEqual(['http://x:y@127.0.0.1:3']);
    expect(readProxyUrls('eu', {})).toEqual([]);
    let message = '';
    try {
      readProxyUrls('eu', { FRESHET_PROXIES_EU: 'http://127.0.0.1:1,ftp://user:hunter22@h' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/FRESHET_PROXIES_EU: proxy 2 /);
    expect(message).not.toContain('hunter22');
  });
});
