import { withoutRelativeStamp } from '../../../src/extractors/relative-stamps';
import { extract } from '../../../src/extractors/text-density';

// A XenForo-shaped thread whose posts are stamped relative to the crawl ("Today at 3:26 AM"), one
// quoting the first with an attribution that opens with the stamp.
const post = (n: number, who: string, when: string, body: string, quoted = ''): string => `<article class="message message--post js-post" data-author="${who}" id="js-post-${n}">
<div class="message-userDetails"><h4 class="message-name"><a href="/members/${who}.${n}/" class="username">${who}</a></h4></div>
<div class="message-attribution"><time datetime="2026-03-05T0${n}:26:00">${when}</time></div>
<article class="message-body js-selectToQuote"><div class="bbWrapper">${quoted ? `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">${quoted}</div>
<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">A quoted line that the reply answers, copied from further up the thread.</div></div></blockquote>` : ''}${body}</div></article></article>`;
const bodies = [
  'Has anyone else had the mirror list reset itself after the last upgrade of the keyring package on this machine?',
  'Yes, the same thing happened to me two years ago, and pinning the mirror in the config file was the only thing that helped.',
  'Thanks, pinning it worked here as well. I will keep an eye on it after the next upgrade and report back in this thread.',
];
const html = `<!doctype html><html><head><title>Mirror list resets | Example Forums</title><meta name="generator" content="XenForo"></head><body><div id="XF"><h1>Mirror list resets</h1>
<div class="block-body js-replyNewMessageContainer">
${post(1, 'ana', 'Today at 3:26 AM', bodies[0]!)}
${post(2, 'seth', 'Today at 4:21 AM', bodies[1]!)}
${post(3, 'ana', 'Mar 5, 2026', bodies[2]!, '14 hours ago, seth said:')}
</div></div></body></html>`;

describe('relative stamps of forum posts (relative-stamps.ts)', () => {
  it('reads a bare relative stamp as nothing and strips one from a post header or a quote attribution', () => {
    for (const s of ['Today at 3:26 AM', 'Yesterday at 11:02 pm', '2 years ago', 'Posted 3 hours ago', 'a month ago', '2y', '17h', '3d']) expect(withoutRelativeStamp(s)).toBe('');
    expect(withoutRelativeStamp('Need2KnowLion 2 years ago#1')).toBe('Need2KnowLion #1');
    expect(withoutRelativeStamp('14 hours ago, Joe Root said:')).toBe('Joe Root said:');
  });

  it('keeps sentences and absolute dates that mention a time', () => {
    for (const s of ['I built it about a year ago and it still runs.', 'Did it 2 years ago', '(edited 1 year ago)', '450W', '3D', '6 min', '5 min', 'Mar 5, 2026', '2 May 2025 18:48', '2024', 'Reply #3'])
      expect(withoutRelativeStamp(s)).toBe(s);
  });

  it("leaves the posts' relative stamps out of a thread's text, keeping names, absolute dates and quotes", () => {
    const text = extract(html, { url: 'https://forums.example.org/threads/mirror-list-resets.1146/' }).text;
    for (const b of bodies) expect(text).toContain(b);
    expect(text).not.toContain('Today at');
    expect(text).not.toContain('hours ago');
    expect(text).toContain('seth said:');
    expect(text).toContain('Mar 5, 2026');
  });
});
