import { isPostFurniture } from '../../../src/extractors/post-furniture';
import { extract } from '../../../src/extractors/text-density';

// A FluxBB-shaped thread: each post's profile column lists the poster's status and facts.
const post = (n: number, user: string, text: string): string => `
<div id="p${n}" class="blockpost rowodd"><h2><span><a href="viewtopic.php?pid=${n}#p${n}">2024-11-0${n} 10:1${n}:00</a></span></h2>
<div class="box"><div class="inbox"><div class="postbody">
<div class="postleft"><dl><dt><strong><a href="profile.php?id=${n}">${user}</a></strong></dt><dd class="usertitle"><strong>Member</strong></dd>
<dd><span>Offline</span></dd><dd><span>Registered: 2023-0${n}-12</span></dd><dd><span>Posts: ${100 * n}</span></dd></dl></div>
<div class="postright"><h3>Re: Pacman fails to sync after mirror change</h3><div class="postmsg"><p>${text}</p></div></div>
</div></div><div class="postfootright"><ul><li class="postreport"><a href="misc.php?report=${n}">Report</a></li><li class="postquote"><a href="post.php?qid=${n}">Quote</a></li></ul></div></div></div>`;
const texts = [
  'After switching my mirrorlist to a closer mirror, pacman -Syu fails with signature errors on every package it downloads.',
  'Refresh the keyring first: update archlinux-keyring on its own, then run the full upgrade again and the errors should go away.',
  'That did it, thank you. The keyring on this machine had not been updated for months because I rarely booted it.',
];
const html = `<!doctype html><html lang="en"><head><title>Pacman fails to sync after mirror change / Newbie Corner / Arch Linux Forums</title></head><body>
<div id="brdmain"><h1><span>Pacman fails to sync after mirror change</span></h1>${texts.map((t, i) => post(i + 1, ['ana', 'seth', 'ana'][i]!, t)).join('')}</div></body></html>`;

describe('per-post furniture of a forum thread (post-furniture.ts)', () => {
  it('reads counters, profile facts, status and buttons as furniture, sentences as text', () => {
    for (const s of ['1,430 posts', '2 Likes', '(11 children)', 'Registered: 2023-01-12', 'Posts: 300', 'Reactions: CountMike', 'Offline', 'Quote', 'permalink']) expect(isPostFurniture(s)).toBe(true);
    for (const s of ['I have 2 posts about this in the other thread.', 'Reply to the first post, please', 'Joined the club in 2019 and never looked back at the old mirror.']) expect(isPostFurniture(s)).toBe(false);
  });

  it("reads a thread's tallies and its more-replies buttons as furniture, a sentence with counts as text", () => {
    for (const s of ['6.3K views 23 replies 14 participants last post by ggery', '1.9K views · 11 replies', 'Show more replies', 'Load 3 more comments']) expect(isPostFurniture(s)).toBe(true);
    for (const s of ['12 views and 3 replies later, nobody has answered my question.', 'Show more replies to newcomers, please.', '300 posts later I still run the same mirror.']) expect(isPostFurniture(s)).toBe(false);
  });

  it("leaves each post's profile column out of the thread's text, keeping the posts", () => {
    const text = extract(html, { url: 'https://bbs.example.org/viewtopic.php?id=309936' }).text;
    for (const t of texts) expect(text).toContain(t);
    for (const s of ['Offline', 'Registered:', 'Posts: 200']) expect(text).not.toContain(s);
  });

  it("reads quote toggles, a thread's closing notice and the call to sign in as furniture, sentences about them as text", () => {
    for (const s of ['Click to shrink...', 'Click to expand...', 'Not open for further replies.', 'This topic was automatically closed after 30 days. New replies are no longer allowed.',
      'This discussion is now closed.', 'You must log in or register to comment.',
      "You're browsing the GameFAQs Message Boards as a guest. Sign Up for free (or Log In if you already have an account) to be able to post messages."]) expect(isPostFurniture(s)).toBe(true);
    for (const s of ['Click to expand the sidebar and pick the second mirror.', 'This thread was closed last year, but the bug is still there.', 'You must log in once as root before the upgrade.']) expect(isPostFurniture(s)).toBe(false);
  });

  it('drops the "Status" label of a closed thread with its notice', () => {
    const closed = html.replace('<div id="brdmain">', '<div id="brdmain"><dl class="blockStatus"><dt>Status</dt><dd>Not open for further replies.</dd></dl>');
    const text = extract(closed, { url: 'https://bbs.example.org/viewtopic.php?id=309936' }).text;
    for (const t of texts) expect(text).toContain(t);
    for (const s of ['Status', 'Not open for further replies']) expect(text).not.toContain(s);
  });

  it('reads a header label whose value the script fills in ("wrote on" before an empty timeago link) as furniture', () => {
    for (const s of ['wrote on', 'posted on', 'Replied at']) expect(isPostFurniture(s)).toBe(true);
    for (const s of ['I wrote on the wiki about it.', 'Posted', 'wrote on the back of the card']) expect(isPostFurniture(s)).toBe(false);
  });
});

// A vBulletin-shaped thread whose theme hashes its class names: no class word says "poster box",
// and the poster's facts are label and value lines no word list knows.
describe("the template's lines recurring on every post (dropRecurringLines)", () => {
  const reply = (n: number, user: string, text: string): string => `
<li class="x9f2k" id="post_${n}"><div class="x1ab"><span class="x7c3">0${n}-12-2024, 0${n}:15 PM</span> <a href="#post${n}">#${n}</a></div>
<div class="x3de"><div class="x4q"><a href="member.php?u=${n}"><strong>${user}</strong></a></div><div class="x5r">Web Hosting Guru</div>
<dl class="x6s"><dt>Join Date</dt><dd>Mar 201${n}</dd><dt>Location</dt><dd>Earth</dd></dl>
<ul class="x8t"><li><a href="search.php?u=${n}">View Forum Posts</a></li><li><a href="search.php?t=${n}">View Forum Threads</a></li></ul></div>
<div class="x2mm"><blockquote class="x0p">${text}</blockquote></div></li>`;
  const texts = [
    'What do you look at first when you choose a web host for a small shop: the price, the support or where the servers are?',
    'Support, every time. A cheap plan is worth nothing when the site is down on a Friday night and nobody answers.',
    'Location matters for latency if your customers are all in one country, otherwise a CDN in front makes it moot.',
    'I asked for a trial month before paying for a year, and the answers of their support in that month told me enough.',
  ];
  const html = `<!doctype html><html lang="en"><head><title>Choosing a web host - Web Hosting Talk</title><meta name="generator" content="vBulletin 4.2.5"></head><body>
<div class="x00"><h1>Choosing a web host</h1><ol class="x11">${texts.map((t, i) => reply(i + 1, ['HOSTLAR', 'fullarton', 'HOSTLAR', 'domaincart'][i]!, t)).join('')}</ol></div></body></html>`;
  const lines = extract(html, { url: 'https://www.webhostingtalk.com/showthread.php?t=1930933' }).text.split('\n');

  it('leaves out the labels, ranks and buttons every post carries', () => {
    for (const s of ['Join Date', 'Location', 'Earth', 'View Forum Posts', 'View Forum Threads', 'Web Hosting Guru']) expect(lines).not.toContain(s);
  });

  it("keeps every post's text and each post's header, the name of a poster who writes half the thread too", () => {
    for (const t of texts) expect(lines).toContain(t);
    expect(lines.filter((l) => l === 'HOSTLAR')).toHaveLength(2);
  });
});
