import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTokens } from '../../../src/cli/tokens';

describe('readTokens', () => {
  it('reads a comma-separated variable, or a file (one per line, # comments) in preference', () => {
    expect(readTokens('weibo', { FRESHET_TOKENS_WEIBO: ' a, b ,,c' })).toEqual(['a', 'b', 'c']);
    const file = join(mkdtempSync(join(tmpdir(), 'freshet-tokens-')), 'tokens');
    writeFileSync(file, '# accounts\nx\r\n\ny\n');
    expect(readTokens('weibo', { FRESHET_TOKENS_WEIBO: 'ignored', FRESHET_TOKENS_WEIBO_FILE: file })).toEqual(['x', 'y']);
  });

  it('refuses an empty pool, naming the variables but no secret', () => {
    expect(() => readTokens('qa_pool', {})).toThrow(/FRESHET_TOKENS_QA_POOL .*FRESHET_TOKENS_QA_POOL_FILE/);
  });
});
