import { extract } from '../../../src/extractors/text-density';

// A XenForo-shaped thread: the second reply quotes the first post, each of the member's posts carries their signature.
const post = (n: number, user: string, body: string): string => `
<article class="message message--post" data-author="${user}" id="js-post-${n}">
  <div class="message-cell message-cell--user"><h4 class="message-name"><a href="/members/${user}.${n}/" class="username">${user}</a></h4></div>
  <div class="message-cell message-cell--main">
    <header class="message-attribution"><time class="u-dt" datetime="2010-02-20T10:0${n}:00+0000">Feb 20, 2010</time><a href="/threads/car-rental.1156/post-${n}">#${n}</a></header>
    <div class="message-content"><article class="message-body"><div class="bbWrapper">${body}</div></article></div>
  </div>
</article>`;
const question = 'I am currently working at a language school where I am supposed to make an English course for car rental staff.';
const signature = '<div class="bbWrapper-sig">Neither a teacher nor a native speaker of the language, just a learner.</div>';
const html = `<!doctype html><html id="XF" lang="en"><head><title>Car rental or car rent? | English Forum</title></head><body>
<div class="p-body"><h1 class="p-title-value">Car rental or car rent?</h1><div class="block-body js-replyNewMessageContainer">
${post(1, 'tomas', `Hello, my name is Tomas and I come from the Czech Republic.<br><br>${question}<br><br>Which of the two titles sounds better to you?`)}
${post(2, 'raton', `I would rather say: An English Course in Car Rental, it sounds natural to me.<br>${signature}`)}
${post(3, 'bhaisahab', `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-content">${question}</div></blockquote>Perhaps: "English for Car Rental businesses" would be clearer for the students.`)}
${post(4, 'raton', `Both are used, but car hire is more common in British English than car rental.<br>${signature}`)}
</div></div></body></html>`;

describe('text_density on a forum thread with quotes and signatures', () => {
  const text = extract(html, { url: 'https://www.usingenglish.com/forum/threads/car-rental-or-car-rent.1156/' }).text;
  const count = (s: string): number => text.split(s).length - 1;

  it('keeps the quoted post once, where it was written', () => {
    expect(count('I am currently working at a language school')).toBe(1);
    expect(text.indexOf('I am currently working')).toBeLessThan(text.indexOf('I would rather say'));
  });

  it("keeps a member's signature once, not under each post", () => {
    expect(count('Neither a teacher nor a native speaker')).toBe(1);
  });

  it('keeps every reply', () => {
    for (const s of ['I would rather say', 'English for Car Rental businesses', 'car hire is more common']) expect(text).toContain(s);
  });
});
