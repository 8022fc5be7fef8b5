import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from '../../../src/extractors/text-density';
import { makeFetcher, startServer, type LocalServer } from './local-server';

/**
 * test/fixtures/bad/html: pages with wrong, missing or unknown charsets, cut mid-character, tag
 * soup and binary noise, through the whole page path: served over HTTP, fetched and decoded by
 * http_fetch, main text extracted by text_density.
 */
const DIR = join(__dirname, '..', '..', 'fixtures', 'bad', 'html');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, { contentType: string; charset: string | null; contains: string | null }>;
const pages = Object.keys(expected).filter((k) => !k.startsWith('_'));

let server: LocalServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const body = readFileSync(join(DIR, name));
    res.writeHead(200, { 'content-type': expected[name]!.contentType, 'content-length': String(body.length) }).end(body);
  });
});
afterAll(() => server.close());

describe('the bad-HTML corpus, fetched and extracted', () => {
  it.each(pages)('%s', async (name) => {
    const want = expected[name]!;
    const { fetcher } = makeFetcher();
    const res = await fetcher.fetch({ url: server.url(`/${name}`), expect: 'html' });
    if (want.charset) expect(res.charset).toBe(want.charset);
    expect(res.text).not.toMatch(/浠婂|锛|鏈|閫/); // the marks of UTF-8 read as GB18030
    const started = Date.now();
    const page = extract(res.text);
    expect(Date.now() - started).toBeLessThan(5000);
    if (want.contains) {
      expect(page.text).toContain(want.contains);
      expect(page.title).toContain('暴雨预警');
    } else {
      expect(page.text.length).toBeLessThanOrEqual(res.text.length);
    }
  });
});
