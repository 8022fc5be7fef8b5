import { matchPath } from '../../../../src/cli/serve/http';
import { esc, highlighted, scriptJson } from '../../../../src/cli/serve/pages/html';
import { isLoopback } from '../../../../src/cli/serve/server';

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
