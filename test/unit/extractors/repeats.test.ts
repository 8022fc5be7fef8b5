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

describe('a section rendered once per breakpoint (dropCopiedRuns)', () => {
  // Framer-shaped: the same article body in a desktop and a tablet variant, one hidden by a hashed class.
  const body = [
    'Home remodeling in California is a significant investment, with costs that vary by the size of the home and the finishes chosen.',
    'A kitchen remodel usually costs the most per square foot, because cabinets, counters and appliances all change at once.',
    'Bathrooms come second: plumbing moves and tile work take skilled trades, and permits add weeks to the schedule.',
    'Budget ten to twenty percent on top of the estimate for what only shows up once the walls are open.',
  ].map((p) => `<p class="framer-text">${p}</p>`).join('');
  const variant = (hash: string): string => `<div class="ssr-variant hidden-${hash}"><div class="framer-bkf1oq">${body}</div></div>`;

  it('keeps one copy of the body, not two', () => {
    const page = extract(`<html><head><title>How much does a home remodel cost?</title></head><body><div class="framer-17t5wmu">
      <h1>How much does a home remodel cost?</h1>${variant('12t0irv')}${variant('bnz77l')}</div></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Home remodeling in California'))).toHaveLength(1);
    expect(page.paragraphs.filter((p) => p.startsWith('Budget ten to twenty percent'))).toHaveLength(1);
  });

  it('keeps a single line that repeats for real (the terms under each coupon)', () => {
    const terms = 'Cannot be combined with other offers. Valid for residential customers only, one coupon per visit.';
    const coupons = ['$50 off any panel upgrade', '$25 off a ceiling fan installation', '10% off whole-home surge protection']
      .map((c) => `<div class="coupon"><h3>${c}</h3><p>${terms}</p><p>Call us to book a visit and mention this coupon when you do, we will take it off the bill.</p></div>`).join('');
    const page = extract(`<html><head><title>Coupons</title></head><body><main><h1>Coupons</h1>${coupons}</main></body></html>`);
    expect(page.paragraphs.filter((p) => p === terms)).toHaveLength(3);
  });
});

describe("a product card that renders its name more than once (dropCardRepeats)", () => {
  // Shop collection-grid shape: the name over the picture, as the card's title and in a quick-shop panel.
  const card = (name: string, price: string): string => `<div class="product-card"><a href="/p/${name}"><div class="overlay">${name}</div><img src="/i.jpg" alt=""></a>
    <a class="title" href="/p/${name}">${name}</a><div class="quick-shop"><div class="qs-name">${name}</div><div class="price">${price}</div></div></div>`;
  const names = ['Chocolate Hazelnut Coffee', 'Dark Roast Coffee', 'Blueberry Coffee', 'Espresso Roast Coffee', 'Medium Roast Coffee', 'Vanilla Coffee', 'Mocha Latte 12-Pack', 'Original Latte 12-Pack'];
  const page = extract(`<html><head><title>Coffee</title></head><body><nav><ul>${['Shop', 'Coffee', 'Merch', 'About'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
    <h1>Coffee</h1><p>51 products</p><div class="grid">${names.map((n, i) => card(n, `$${19 + i}.99`)).join('')}</div></body></html>`);

  it('reads each name once', () => {
    for (const n of names) expect(page.text.split('\n').filter((l) => l === n)).toHaveLength(1);
    expect(page.text).toContain('$19.99');
  });
});
