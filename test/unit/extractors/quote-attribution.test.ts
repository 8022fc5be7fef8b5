import { extract } from '../../../src/extractors/text-density';

// XenForo's quote: the attribution is a link to the quoted post ("Pippin06 said:"), a line of link
// text the thread's line selection would drop as navigation.
const post = (n: number, who: string, quoted: string, body: string): string => `<article class="message message--post js-post" data-author="${who}" id="js-post-${n}">
<div class="message-userDetails"><h4 class="message-name"><a href="/members/${who}.${n}/" class="username">${who}</a></h4></div>
<div class="message-attribution"><time datetime="2023-12-30T22:1${n}:00">Dec 30, 2023</time></div>
<article class="message-body js-selectToQuote"><div class="bbWrapper">${quoted ? `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title"><a href="/goto/post?id=${n - 1}" class="bbCodeBlock-sourceJump">${quoted} said:</a></div>
<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">The last bottle I bought had a weaker drydown than the one from five years ago.</div></div></blockquote>` : ''}${body}</div></article></article>`;
const bodies = [
  'Has anyone noticed that the reformulated version lasts much less on skin than the vintage bottles from the nineties?',
  'I have both and the vintage one is richer in the heart, but the new one projects more in the first hour after spraying.',
  'Same here: my batch from last spring fades after three hours, while the old one was still there the next morning.',
];
const html = `<!doctype html><html><head><title>Reformulations | Basenotes</title><meta name="generator" content="XenForo"></head><body><div id="XF"><h1>Reformulations</h1>
<div class="block-body js-replyNewMessageContainer">${bodies.map((b, i) => post(i + 1, ['Tea_Lilly', 'Pippin06', 'Colbourne'][i]!, i === 0 ? '' : ['Tea_Lilly', 'Pippin06'][i - 1]!, b)).join('')}</div></div></body></html>`;

describe("a forum post's quote attribution (content.ts)", () => {
  it('keeps the linked "X said:" line that opens a quoted post', () => {
    const text = extract(html, { url: 'https://basenotes.com/threads/reformulations.563447/' }).text;
    for (const b of bodies) expect(text).toContain(b);
    expect(text).toContain('Tea_Lilly said:');
    expect(text).toContain('Pippin06 said:');
  });
});
