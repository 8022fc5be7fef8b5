import { extract } from '../../../src/extractors/text-density';

/**
 * A XenForo-shaped thread whose theme hashes its class names: no class word marks the poster box,
 * whose facts are a definition list ("Joined" / "Jun 29, 2016") above the post's own <time>.
 */
function hashedThread(): string {
  const post = (i: number, name: string, joined: string): string => `<article class="x1m x2p" data-author="${name}" id="js-post-${i}">
    <div class="x3c"><h4 class="x4n"><a href="/members/${name}.${i}/" class="x5u">${name}</a></h4>
    <dl class="x6p"><dt>Joined</dt><dd>${joined}</dd></dl><dl class="x6p"><dt>Messages</dt><dd>${i * 37}</dd></dl></div>
    <div class="x7m"><header class="x8a"><ul class="x9l"><li><a href="/threads/id.1498484/post-${i}"><time datetime="2024-07-1${i}T10:00:00-0400">Jul 1${i}, 2024</time></a></li></ul></header>
    <div class="x0b"><div class="x1w">Post ${i}: I applied to twelve programs this cycle and heard back from four of them so far, two with interview invitations.<br>
    Does anyone know whether the others send rejections at all, or simply stay silent until the match? (${name})</div></div></div></article>`;
  return `<html id="XF"><head><title>Official 2024-2025 Infectious Disease Application Thread</title><meta name="generator" content="XenForo"></head><body>
    <h1 class="xh1">Official 2024-2025 Infectious Disease Application Thread</h1>
    <div class="xbb">${[post(1, 'boobaloobie', 'Jun 29, 2016'), post(2, 'pnomes', 'Mar 25, 2013'), post(3, 'boobaloobie', 'Jun 29, 2016')].join('')}</div></body></html>`;
}

describe("a post's date, not the poster's profile field (thread-content.ts)", () => {
  it('takes the date of the post, not the join date a definition list gives beside it', () => {
    const lines = extract(hashedThread(), { url: 'https://forums.example.net/threads/official-2024-2025-id-application-thread.1498484/' }).text.split('\n');
    for (const d of ['Jul 11, 2024', 'Jul 12, 2024', 'Jul 13, 2024']) expect(lines).toContain(d);
    expect(lines).not.toContain('Jun 29, 2016');
    expect(lines).not.toContain('Mar 25, 2013');
  });
});
