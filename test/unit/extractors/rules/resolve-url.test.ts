import { urlResolver } from '../../../../src/extractors/rules/resolve-url';

const hrefs = [
  '/news/2.html', '/news/', '/', '/a/b/c', '/news/?page=2', '/news/1.html?x=1&y=2', '/t/1?p=3#post-4', '/news/1.html#c',
  '//other.example/x', '/./a', '/a/../b', '/a/./b', '/a/..', '/a b', '/%7Euser', '/ünï', '/a\\b', ' /news/3.html ', '/news/3.html\n',
  'news/4.html', '../up.html', './here', '?q=1', '#top', 'https://x.example/a', 'mailto:a@b.example', 'javascript:void(0)', '', 'http://[::1', '/a?b=c d',
  '/a/.hidden', '/..html', '/news//5.html', '/A-Z_0-9~/x.tar',
];
const bases = ['http://127.0.0.1:33533/news/1.html', 'https://n.example:443/news/', 'https://user:pw@n.example/t/1', 'https://xn--bcher-kva.example/a/b', 'HTTP://N.EXAMPLE/x', 'file:///tmp/a.html', 'not a url'];

describe('urlResolver', () => {
  it('resolves every href exactly as the URL parser does, with or without its fast path', () => {
    for (const base of bases) {
      const resolve = urlResolver(base);
      for (const href of hrefs) {
        let want: string | undefined;
        try {
          want = new URL(href, base).toString();
        } catch {
          want = undefined;
        }
        expect([base, href, resolve(href)]).toEqual([base, href, want]);
      }
    }
  });
});
