import { extract } from '../../../src/extractors/text-density';

/**
 * Forum threads that name no engine in their markup and sit at no thread URL: their replies are
 * stamped like a blog's reader comments, but they are the page's content (markCommentThreads).
 */
const replies = [
  'Thank you for the trip report, it is very helpful for our own first visit in the spring. What did you not like about Osaka?',
  'Osaka is loud and busy compared with Kyoto, but the food alone makes it worth two nights. We stayed near Namba and walked everywhere.',
  'Great tips on the luggage forwarding service. We used it twice and it saved us from carrying suitcases up the station stairs.',
  'Shibu Onsen sounds lovely. Did you need to book the public baths in advance, or could you just walk in with the key from the inn?',
];
const opening = [
  'As our trip is drawing to a close I thought I would give some tips from a first time visitor to Japan, after three weeks of travel.',
  'I did lots of research before visiting and thank everyone here for the feedback. Our favourite place was Shibu Onsen, a quaint village.',
  'We travelled on local, express and shinkansen trains with our luggage and had no issues at all, as long as you can lift your own bags.',
].map((p) => `<p>${p}</p>`).join('');

// The opening post is one of the series, but dated without a time of day (the replies are stamped).
const item = (user: string, stamp: string, body: string): string =>
  `<div class="kq7 post"><div class="kq8"><a href="/u/${user}">${user}</a> <span>${stamp}</span></div><div class="kq9">${body}</div></div>`;
const series = `<!doctype html><html lang="en"><head><title>Tips from a first time Japan visitor</title></head><body>
<div class="x1a"><h1>Tips from a first time Japan visitor</h1><div class="x4c">
${item('poppy', 'December 31, 2025', opening)}
${replies.map((r, i) => item(`member${i}`, `Jan ${i + 2}, 2026 10:1${i}`, `<p>${r}</p>`)).join('')}
</div></div></body></html>`;

describe('the replies of a forum thread without forum markup (markCommentThreads)', () => {
  it('keeps the replies when the opening post is an item of their series, dated without a time of day', () => {
    const text = extract(series, { url: 'https://www.example.com/travel/japan/tips-from-a-first-time-visitor' }).text;
    expect(text).toContain('Our favourite place was Shibu Onsen');
    for (const r of replies) expect(text).toContain(r);
  });
});
