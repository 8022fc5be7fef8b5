import { matchPath } from '../../../../src/cli/serve/http';
import { esc, highlighted, scriptJson } from '../../../../src/cli/serve/pages/html';
import { z } from 'zod';
import { isLoopback, startServe } from '../../../../src/cli/serve/server';
import { recordingLogger } from '../../../../src/core/logger';

describe('freshet serve: routing and escaping', () => {
  it('matches path parameters, decoded, and nothing else', () => {
    expect(matchPath('/api/pipelines/{name}/dead-letters/{id}', '/api/pipelines/social/dead-letters/17-0')).toEqual({ name: 'social', id: '17-0' });
    expect(matchPath('/api/pipelines/{name}', '/api/pipelines/a%20b')).toEqual({ name: 'a b' });
    expect(matchPath('/api/pipelines/{name}', '/api/pipelines/')).toBeUndefined();
    expect(matchPath('/api/pipelines/{name}', '/api/pipelines/x/limits')).toBeUndefined();
    expect(matchPath('/api/pipelines/{name}', '/api/pipelines/%E0%A4%A')).toBeUndefined();
  });

  it('treats only loopback addresses as loopback (anything else needs a token)', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '192.168.1.5', '::', 'example.org'].some(isLoopback)).toBe(false);
  });

  it('escapes text, marks highlights and keeps script JSON from closing its element', () => {
    expect(esc('<a href="x">\'&')).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
    expect(highlighted('<b>«地铁»</b> late')).toBe('&lt;b&gt;<mark>地铁</mark>&lt;/b&gt; late');
    expect(scriptJson({ t: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });
});

describe('freshet serve: operator actions are audit-logged', () => {
  it('logs each write once with action, target, origin and answer; a refused one with its reason; reads not at all', async () => {
    const logger = recordingLogger();
    const route = (method: 'GET' | 'POST', path: string, handle: () => Promise<unknown>) => ({
      method, path, operationId: `${method.toLowerCase()}${path.split('/').pop()}`, summary: '', tag: 't',
      params: z.object({ name: z.string() }), response: z.unknown(), handle,
    });
    const running = await startServe({
      host: '127.0.0.1', port: 0, logger, openApi: {}, deps: {} as never,
      routes: [
        route('POST', '/api/pipelines/{name}/pause', () => Promise.resolve({ paused: true })),
        route('POST', '/api/pipelines/{name}/drain', () => Promise.reject(new Error('Redis: connection refused'))),
        route('GET', '/api/pipelines/{name}/stats', () => Promise.resolve({ n: 1 })),
      ],
    });
    try {
      const post = (path: string) => fetch(`${running.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect((await post('/api/pipelines/social/pause')).status).toBe(200);
      expect((await post('/api/pipelines/social/drain')).status).toBe(502);
      expect((await fetch(`${running.url}/api/pipelines/social/stats`)).status).toBe(200);
    } finally {
      await running.close();
    }
    const audit = logger.records.filter((r) => r.msg.startsWith('operator action'));
    expect(audit).toEqual([
      { level: 'info', msg: 'operator action', fields: { action: 'postpause', name: 'social', from: '127.0.0.1', answer: '{"paused":true}' } },
      { level: 'warn', msg: 'operator action refused', fields: { action: 'postdrain', name: 'social', from: '127.0.0.1', err: 'Redis: connection refused' } },
    ]);
  });
});
