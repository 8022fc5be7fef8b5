import { join } from 'node:path';
import { loadTemplates, parseTemplate, prefixTemplate } from '../../../src/search/templates';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');

describe('mappings/', () => {
  const templates = loadTemplates(MAPPINGS);

  it('holds the four indices of the design, and comments', () => {
    expect(templates.map((t) => t.name)).toEqual(['comments', 'pages', 'post-metrics', 'posts', 'topics', 'users']);
  });

  it('never leaves fields to dynamic mapping', () => {
    for (const t of templates) expect(t.body.template.mappings.dynamic).toBe('strict');
  });

  it('keeps post and user ids as keywords (they exceed 2^53)', () => {
    const posts = templates.find((t) => t.name === 'posts')!.body.template.mappings.properties as Record<string, { type?: string }>;
    expect(posts['id']?.type).toBe('keyword');
    expect(posts['repost_of']?.type).toBe('keyword');
    expect((posts['text'] as { analyzer?: string }).analyzer).toBe('cjk');
  });
});

describe('prefixTemplate', () => {
  it('prefixes the name and every pattern and merges settings', () => {
    const t = parseTemplate('posts', JSON.stringify({
      index_patterns: ['posts', 'posts-*'],
      template: { settings: { number_of_shards: 1 }, mappings: { dynamic: 'strict', properties: {} } },
    }));
    const out = prefixTemplate(t, { prefix: 'x-', settings: { number_of_replicas: 0 } });
    expect(out.name).toBe('x-posts');
    expect(out.body.index_patterns).toEqual(['x-posts', 'x-posts-*']);
    expect(out.body.template.settings).toEqual({ number_of_shards: 1, number_of_replicas: 0 });
  });
});

describe('parseTemplate', () => {
  it('names the file and key path of an invalid template', () => {
    const bad = JSON.stringify({ index_patterns: ['posts'], template: { mappings: { dynamic: true, properties: {} } } });
    expect(() => parseTemplate('posts', bad, 'mappings/posts.json')).toThrow(/mappings\/posts\.json: template\.mappings\.dynamic/);
  });

  it('rejects broken JSON and a template whose patterns miss its own name', () => {
    expect(() => parseTemplate('posts', '{', 'p.json')).toThrow(/p\.json: not JSON/);
    const other = JSON.stringify({ index_patterns: ['users'], template: { mappings: { dynamic: 'strict', properties: {} } } });
    expect(() => parseTemplate('posts', other)).toThrow(/must include the file's own name/);
  });
});
