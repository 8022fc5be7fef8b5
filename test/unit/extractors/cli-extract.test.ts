import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { extractFiles } from '../../../src/cli/commands/extract';

describe('freshet extract (extractFiles)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'freshet-extract-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const article = readFileSync(join(__dirname, '..', '..', 'fixtures', 'extraction', 'article-en.html'));

  it('prints one JSON line per file, plain and gzip alike, in argument order', async () => {
    writeFileSync(join(dir, 'a.html'), article);
    writeFileSync(join(dir, 'b.html.gz'), gzipSync(article));
    const lines: string[] = [];
    const failures = await extractFiles([join(dir, 'a.html'), join(dir, 'b.html.gz')], (l) => lines.push(l), { meta: false });
    expect(failures).toBe(0);
    const [a, b] = lines.map((l) => JSON.parse(l) as { file: string; title: string; text: string });
    expect(Object.keys(a!)).toEqual(['file', 'title', 'text']);
    expect(a!.file).toBe(join(dir, 'a.html'));
    expect(a!.title).toBe('City council approves new river park');
    expect(a!.text).toMatch(/^The city council voted/);
    expect(b!.text).toBe(a!.text);
  });

  it('reports an unreadable file as an error line and counts it', async () => {
    const lines: string[] = [];
    const failures = await extractFiles([join(dir, 'missing.html')], (l) => lines.push(l), { meta: true });
    expect(failures).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ file: join(dir, 'missing.html'), error: expect.stringContaining('ENOENT') });
  });
});
