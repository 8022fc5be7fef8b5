import { parseHtml } from '../../../src/extractors/dom';
import { pageElements } from '../../../src/extractors/page-elements';
import { extract } from '../../../src/extractors/text-density';
import { threadStarter } from '../../../src/extractors/thread-starter';

const url = 'https://www.example-forum.com/threads/replacement-projector-recommendations-2024.3291860/page-2';
const reply = (user: string, body: string, microdata = ''): string => `
<article class="message message--post js-post" data-author="${user}" ${microdata ? 'itemscope itemtype="https://schema.org/Comment"' : ''}>
  <div class="message-cell message-cell--user">${microdata}<h4 class="message-name"><a href="/members/${user.toLowerCase()}.1/" class="username">${user}</a></h4></div>
  <div class="message-cell message-cell--main"><article class="message-body"><div class="bbWrapper">${body}</div></article></div>
</article>`;
const personMicrodata = (user: string): string => `<section class="message-user" itemprop="author" itemscope itemtype="https://schema.org/Person">
  <meta itemprop="url" content="https://www.example-forum.com/members/${user.toLowerCase()}.1/"><div class="message-avatar"><span class="avatar">${user[0]}</span></div><span class="username" itemprop="name">${user}</span></section>`;
const body = [
  'I have a quite old JVC RS2 in my basement home theater that is finally starting to show its age and needs replacing.',
  'The Epson LS12000 looks like a good match for a dedicated room, although the black levels worry me a little.',
  'Whatever you pick, get the screen calibrated afterwards; the difference in a dark room is larger than the projector itself.',
];

describe('the author of a forum thread is who started it', () => {
  it("takes the thread's own microdata author over the first reply shown on a later page", () => {
    const html = `<html id="XF"><head><title>Replacement projector recommendations 2024</title></head><body>
      <div itemscope itemtype="https://schema.org/DiscussionForumPosting"><div class="hidden"><div itemprop="author" itemscope itemtype="https://schema.org/Person">
      <span class="username" itemprop="name">JosephF</span><div class="avatar-badge-wrapper"><span class="avatar-u42100-m">J</span></div></div></div>
      <h1 class="p-title-value">Replacement projector recommendations 2024</h1>
      ${reply('eljaycanuck', body[1]!)}${reply('ClaudeB', body[2]!)}</div></body></html>`;
    expect(extract(html, { url }).author).toBe('JosephF');
  });

  it("skips a reply's microdata author and takes the first post's poster", () => {
    const html = `<html id="XF"><head><title>Best closed headphones as of 07/2024</title></head><body>
      <h1 class="p-title-value">Best closed headphones as of 07/2024</h1>
      ${reply('FutureBSD', body[0]!)}${reply('PinkyPowers', body[1]!, personMicrodata('PinkyPowers'))}${reply('Someone', body[2]!, personMicrodata('Someone'))}</body></html>`;
    expect(extract(html, { url }).author).toBe('FutureBSD');
  });

  it("reads the first post's data-username (a board that names posters by that attribute)", () => {
    const post = (user: string, text: string): string => `<div class="msg_body_box"><div class="msg_infobox"><span class="user"><a data-username="${user}" class="name menu_toggle"><b>${user}</b></a></span>
      <span class="post_time">2 years ago</span></div><div class="msg_body">${text}</div></div>`;
    const html = `<html><head><title>Nintendo Direct today</title><script type="application/ld+json">{"@type": "DiscussionForumPosting", "headline": "Nintendo Direct today"}</script></head><body><h1>Nintendo Direct today</h1>
      ${post('Need2KnowLion', body[0]!)}${post('Mr-McMonkeyDog', body[1]!)}${post('Someone', body[2]!)}</body></html>`;
    expect(extract(html, { url: 'https://gamefaqs.gamespot.com/boards/189706-nintendo-switch/80702016' }).author).toBe('Need2KnowLion');
  });
  it("reads the first post's profile link (a plain link before a later poster's styled one) and a FluxBB profile column's term", () => {
    const phpbb = (user: string, text: string, cls = ''): string => `<div class="post"><div class="postbody"><p class="author">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=${user.length}" ${cls}>${user}</a></strong> &raquo; Tue Aug 27, 2019 1:47 am</p>
      <div class="content">${text}</div></div></div>`;
    const html = `<html><head><title>Hellaverse megathread</title></head><body><h2 class="topic-title">Hellaverse megathread</h2>
      ${phpbb('Outer Armatonisdaristan', body[0]!)}${phpbb('The BlAAtschApen', body[1]!, 'class="username-coloured"')}${phpbb('Someone', body[2]!, 'class="username"')}</body></html>`;
    expect(extract(html, { url: 'https://forum.example.net/viewtopic.php?f=20&t=487157' }).author).toBe('Outer Armatonisdaristan');
    const fluxbb = (user: string, text: string): string => `<div class="blockpost"><div class="postbody"><div class="postleft"><dl><dt><strong>${user}</strong></dt>
      <dd class="usertitle"><strong>Member</strong></dd><dd><span>Registered: 2025-11-01</span></dd><dd><span>Posts: 12</span></dd></dl></div>
      <div class="postright"><div class="postmsg"><p>${text}</p></div></div></div></div>`;
    const arch = `<html><head><title>Suspend fails after update</title></head><body><h2>Suspend fails after update</h2>
      ${fluxbb('chunix64', body[0]!)}${fluxbb('seth', body[1]!)}${fluxbb('Someone', body[2]!)}</body></html>`;
    expect(extract(arch, { url: 'https://bbs.example.org/viewtopic.php?id=309936' }).author).toBe('chunix64');
  });
});

describe('the thread starter a poster box names', () => {
  const starter = (box: string) => threadStarter(pageElements(parseHtml(`<html><body><div class="post">${box}<p>First post of the thread.</p></div></body></html>`)));

  it('is the name without the member\'s rank, count and posting time the box runs on with', () => {
    expect(starter('<span class="poster">Rabbids <span>Members</span> 1</span>')).toBe('Rabbids');
    expect(starter('<span class="poster">thanosmano Members 10 January 7, 2020</span>')).toBe('thanosmano');
    expect(starter('<span class="poster">Shancock Posted: 2 years ago 21 replies</span>')).toBe('Shancock');
  });
});

describe('the thread starter a profile address names, whatever the theme calls its classes', () => {
  const starter = (box: string) => threadStarter(pageElements(parseHtml(`<html><body><div class="x1"><div class="x2">${box}</div><p>First post of the thread.</p></div></body></html>`)));

  it("reads the engines' profile addresses: a session id first, a query of its own, an id before the handle, a tilde home", () => {
    expect(starter('<a class="x3" href="member.php?s=e3c94620&amp;u=224387">microfast</a>')).toBe('microfast');
    expect(starter('<a href="https://example.org/community/index.php?action=profile;u=261870">Biology Forums</a>')).toBe('Biology Forums');
    expect(starter('<a class="x3" href="https://forum.example.com/profile/1623576-gringeo/">GrinGEO</a>')).toBe('GrinGEO');
    expect(starter('<a class="x3" href="https://discussion.example.com/profile/1041052-payam-montie/">Payam Montie</a>')).toBe('Payam Montie');
    expect(starter('<a class="x3" href="/profile/Fitzg">Fitzg</a>')).toBe('Fitzg');
    expect(starter('<a class="x3" href="/~scvalex">scvalex</a>')).toBe('scvalex');
    expect(starter('<a class="x3" href="https://www.example.com/forum/members/lowjhg.html">lowjhg</a>')).toBe('lowjhg');
  });

  it("skips a page of the members' area whose name is not the handle its address spells", () => {
    expect(starter('<a href="https://www.example.com/forum/members/albums.html">Pictures &amp; Albums</a><a href="/forum/members/lowjhg.html">lowjhg</a>')).toBe('lowjhg');
    expect(starter('<a href="member.php?u=12">View Public Profile</a><a href="member.php?u=12">microfast</a>')).toBe('microfast');
  });
});

describe("a thread's author tag", () => {
  it('names the starter whose account is gone, ahead of the first replier linked to a profile', () => {
    const html = `<html><head><title>Catering tips</title><meta name="author" content="Former Member"></head><body><h1>Catering tips</h1>
      <div class="x1"><div class="x2">Former Member</div><p>${body[0]}</p></div>
      <div class="x1"><div class="x2"><a href="https://forum.example.com/member/mnhogfarmer">mnhogfarmer</a></div><p>${body[1]}</p></div>
      <div class="x1"><div class="x2"><a href="https://forum.example.com/member/someone">someone</a></div><p>${body[2]}</p></div></body></html>`;
    expect(extract(html, { url: 'https://forum.example.com/topic/catering-tips' }).author).toBe('Former Member');
  });
});
