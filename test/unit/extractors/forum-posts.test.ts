import { parseHtml } from '../../../src/extractors/dom';
import { toBlocks } from '../../../src/extractors/blocks';
import { findPostList, isTeaserList } from '../../../src/extractors/forum-posts';
import { DEFAULT_SCORING, FORUM_SCORING, nodeValues } from '../../../src/extractors/scoring';
import { extract } from '../../../src/extractors/text-density';

/**
 * A thread whose posts sit inside a wrapper named like a poster box (tapatalk's `postprofile_container`),
 * beside a second wrapper div with a line of text of its own: the two wrappers repeat a shape and hold more text than the posts.
 */
function thread(posts: number): string {
  const post = (i: number): string => `<div class="post row-data p_${i}"><dl class="postprofile"><dt><a href="/u/${i}">member${i}</a></dt></dl>
    <div class="postbody"><p class="author">Aug 0${i}, 2006</p><div class="content">Reply number ${i}: quarantine new fish for two weeks, check the store's tanks for ich and fin rot, and ask what water they keep them in.</div>
    <div class="content">Never add fish straight to an established tank; a friend in the store helps more than any guide ${i}.</div></div></div>`;
  return `<html><head><title>What to look for before buying fish</title></head><body><h1>What to look for before buying fish</h1>
    <div><div><div class="postprofile_container">${Array.from({ length: posts }, (_, i) => post(i + 1)).join('')}</div></div>
    <div><p>Board rules: be kind, and stay on topic.</p><p>Contact us</p></div></div></body></html>`;
}

describe('forum post lists (forum-posts.ts)', () => {
  it('takes the finest list of posts holding nearly all the text, not the two wrappers around it', () => {
    const blocks = toBlocks(parseHtml(thread(10)));
    const list = findPostList(blocks, nodeValues(blocks, { ...DEFAULT_SCORING, ...FORUM_SCORING }));
    expect(list?.posts.size).toBe(10);
  });

  it('takes the posts inside one of three classless page wrappers (header band, thread, footer), not the wrappers', () => {
    // vBulletin 3's shape on an old board: body > div (the menu band), div (the posts, each in a bare div), div (the rules box).
    const post = (i: number, who: string): string => `<div><table class="tborder" id="post${i}"><tr><td class="alt2"><a class="bigusername" href="member.php?u=${i}">${who}</a>
      <div class="smallfont">Registered User</div></td><td class="alt1"><div class="smallfont">${i}nd April 2025, 13:59</div>
      <div id="post_message_${i}">Post ${i}: the card locks the refresh rate at 23.951 instead of 23.976 with every player I tried, and a custom resolution changes nothing.
      Disabling hardware decoding did not help either, so it looks like the driver rounds the clock before the display sees it.</div></td></tr></table></div>`;
    const html = `<html><head><title>Wrong refresh rate - Doom9's Forum</title><meta name="generator" content="vBulletin 3.8.11"></head><body>
      <div><table><tr><td class="vbmenu_control"><a href="register.php">Register</a></td><td class="vbmenu_control"><a href="faq.php">FAQ</a></td></tr></table></div>
      <div id="posts">${post(1, 'microfast')}${post(2, 'GeoffreyA')}</div>
      <div><table class="tborder"><tr><td class="alt1"><div class="smallfont"><a href="misc.php?do=bbcode">Forum Rules</a></div><div>Posting rules: you may not post new threads.</div></td></tr></table></div></body></html>`;
    const blocks = toBlocks(parseHtml(html));
    expect(findPostList(blocks, nodeValues(blocks, { ...DEFAULT_SCORING, ...FORUM_SCORING }))?.posts.size).toBe(2);
    const text = extract(html, { url: 'https://forum.example.org/showthread.php?t=186269' }).text;
    for (const s of ['Post 1:', 'Post 2:', 'GeoffreyA', '2nd April 2025, 13:59']) expect(text).toContain(s);
    for (const s of ['Register', 'Forum Rules']) expect(text).not.toContain(s);
  });

  it('keeps every post when the wrapper holding them all is named like a poster box', () => {
    const page = extract(thread(10), { url: 'https://www.tapatalk.com/groups/fish/what-to-look-for-t17351.html' });
    for (let i = 1; i <= 10; i++) expect(page.text).toContain(`Reply number ${i}:`);
  });

  it('keeps replies of the posts\' shape nested in a children wrapper beside each post (threaded XenForo)', () => {
    // AVS Forum's shape: each root post is an <article class="js-post">, its replies sit in a
    // sibling div, as articles of the same class one level down.
    const post = (who: string, n: number, body: string): string => `<article class="js-post california-nested-message nested-level-${n}" data-author="${who}">
      <div class="MessageCard__name-with-attributions"><a href="/members/${who}.${n}/">${who}</a></div><time datetime="2024-01-03T12:00:00">Jan 3, 2024</time>
      <div class="message-content"><article class="message-body" itemprop="text"><div class="bbWrapper">${body}</div></article></div></article>`;
    const roots = Array.from({ length: 4 }, (_, i) => post(`member${i}`, 0, `Root post ${i}: the Epson 5050UB has good blacks, the JVC holds its value for years after you buy it, and a used unit with a fresh lamp is the best deal there is.`)
      + `<div class="california-nested-message-children-wrapper js-nested-children-wrapper"><div class="california-nested-message-children-container">${
        post('JosephF', 1, `Nested reply ${i}: I did run across that, and it has value, but I like to hear what actual owners have to say.`)}</div></div>`).join('');
    const page = extract(`<html><head><title>Replacement projector recommendations</title></head><body><h1>Replacement projector recommendations</h1>
      <div class="block-body js-replyNewMessageContainer">${roots}</div><footer><p>Terms of service</p></footer></body></html>`,
    { url: 'https://www.avsforum.com/threads/replacement-projector-recommendations-2024.3291/' });
    for (let i = 0; i < 4; i++) {
      expect(page.text).toContain(`Root post ${i}:`);
      expect(page.text).toContain(`Nested reply ${i}:`);
    }
  });

  it('counts the nested replies as the thread\'s when it weighs the post list against the page (thread-content.ts threadPosts)', () => {
    // Short root posts, a long reply nested under the first (too few wrappers to make a list of
    // their own: withReplyWrappers), an opening text and a community blurb outside the list: the
    // roots alone hold too little of the page, roots and reply most of it.
    const post = (who: string, n: number, body: string): string => `<article class="js-post california-nested-message nested-level-${n}">
      <div class="MessageCard__name-with-attributions"><a href="/members/${who}.${n}/">${who}</a></div><time datetime="2024-06-03T12:00:00">Jun 3, 2024</time>
      <div class="message-content"><article class="message-body" itemprop="text"><div class="bbWrapper">${body}</div></article></div></article>`;
    const nested = `<div class="california-nested-message-children-wrapper"><div class="california-nested-message-children-container">${
      post('replier', 1, 'Nested reply: a used full suspension bike from a local shop is a better deal than a new entry-level one, and the shop will fit it to you before you ride. '
        + 'Check the fork seals and the pivots, and ride it first, up and down, on some dirt. A shop will also service the bike for a year, which a private seller will not, '
        + 'and it can tell you which frame size fits you before you pay for it. That matters more than the brand of the parts on it, whatever the forums say.')}</div></div>`;
    const roots = Array.from({ length: 4 }, (_, i) => post(`rider${i}`, 0, `Get a hardtail ${i}, they are cheap and simple to fix.`) + (i === 0 ? nested : '')).join('');
    const page = extract(`<html><head><title>Suggestions for a beginner mtb</title></head><body><h1>Suggestions for a beginner mtb</h1>
      <div class="opening"><p>I am looking to get into mountain biking and have been trying to do some research on which bike to get, with a budget of about a thousand dollars, for trails near home.
      I have ridden road bikes for years, but never off road, so I do not know what matters: the fork, the brakes, the wheel size or the frame. Which should I look at first?</p></div>
      <div class="block-body js-replyNewMessageContainer">${roots}</div>
      <aside><p>A forum community dedicated to mountain bike owners and enthusiasts. Come join the discussion about trails, builds, parts, components, and reviews.</p></aside></body></html>`,
    { url: 'https://www.mtbr.com/threads/suggestions-for-a-beginner-mtb.1231381/' });
    for (const name of ['rider0', 'rider3', 'replier']) expect(page.text).toContain(name);
  });
});

/**
 * A news site's topic page (WCXB dev, tune part: a university news office's /topic/ page): a
 * thread path in the URL, and a list of stories, each a linked headline, a date and a standfirst.
 */
function topicPage(stories: number): string {
  const story = (i: number): string => `<div class="page-term--views--list-item"><article class="term-page--news-article--item">
    <h3 class="term-page--news-article--item--title"><a href="/2025/story-${i}">New machine-learning tool number ${i} helps researchers predict chemical properties</a></h3>
    <p class="term-page--news-article--item--publication-date"><time>November ${i + 1}, 2025</time></p>
    <p class="term-page--news-article--item--dek">The open-source application ${i} lets chemists without coding experience train models on their own data, researchers say.</p>
    </article></div>`;
  return `<html><head><title>Software | News</title></head><body><header><a href="/">News</a></header><main><h1>Software</h1>
    <div class="page-term--views--list">${Array.from({ length: stories }, (_, i) => story(i + 1)).join('')}</div></main>
    <footer><p>Massachusetts Avenue, Cambridge</p></footer></body></html>`;
}

describe('a thread path in the URL alone (forum-posts.ts isTeaserList)', () => {
  it('reads a topic page of teasers as a page of stories, their linked headlines kept', () => {
    const page = extract(topicPage(8), { url: 'https://news.example.edu/topic/software' });
    expect(page.text).toContain('New machine-learning tool number 1 helps researchers');
    expect(page.text).toContain('New machine-learning tool number 8 helps researchers');
  });

  it('tells teasers (linked headlines first) from posts (a poster\'s name first)', () => {
    const blocks = toBlocks(parseHtml(topicPage(8)));
    const list = findPostList(blocks, nodeValues(blocks, { ...DEFAULT_SCORING, ...FORUM_SCORING }));
    expect(list && isTeaserList(blocks, list)).toBe(true);
    const posts = toBlocks(parseHtml(thread(6)));
    const postList = findPostList(posts, nodeValues(posts, { ...DEFAULT_SCORING, ...FORUM_SCORING }));
    expect(postList && isTeaserList(posts, postList)).toBe(false);
  });

  it('takes the opening post without a microdata role into the list of replies that have one (Discourse crawler view)', () => {
    const post = (n: number, who: string, role: string): string => `<div id="post_${n}" ${role} class="topic-body crawler-post">
      <div class="crawler-post-meta"><span class="creator"><a href="/u/${who}"><span itemprop="name">${who}</span></a></span>
      <time class="post-time">April 26, 2024, ${n}:28am</time></div>
      <div class="post" itemprop="text"><p>Post ${n} by ${who}: the build passes but the deploy step is cancelled, and the log says nothing about why it happened at all.</p></div></div>`;
    const html = `<html><head><title>Deploy failed - Support</title></head><body><div id="main-outlet"><div id="topic-title"><h1><a href="/t/1">Deploy failed</a></h1>
      <div class="topic-category"><a href="/c/support">Support</a> <a href="/tag/deploy">deploy</a></div></div>
      <div itemscope itemtype="http://schema.org/DiscussionForumPosting">${post(1, 'tinterweb', '')}${
      [2, 3, 4].map((n) => post(n, `member${n}`, 'itemprop="comment" itemscope itemtype="http://schema.org/Comment"')).join('')}</div></div></body></html>`;
    const blocks = toBlocks(parseHtml(html));
    const list = findPostList(blocks, nodeValues(blocks, { ...DEFAULT_SCORING, ...FORUM_SCORING }));
    expect(list?.posts.size).toBe(4);
  });
});

describe("the thread starter's badge after a poster's name (clean.ts)", () => {
  const card = (user: string, starter: boolean, date: string, body: string): string => `<article class="MessageCard js-post">
    <div class="MessageCard__user-info"><div class="MessageCard__name-with-attributions"><a class="MessageCard__user-info__name" href="/members/${user}.1/">${user}</a>
    ${starter ? '<span class="message-attribution-discussion-starter icon-with-text"><i class="fa fa-check-circle" aria-hidden="true"></i><span>Discussion starter</span></span>' : ''}</div>
    <div class="MessageCard__user-details">410 posts · Joined 2002</div></div>
    <div class="MessageCard__container"><a href="#post-1">#1</a> · <time class="u-dt">${date}</time></div>
    <div class="message-body"><div class="bbWrapper">${body}</div></div></article>`;
  const answers = [
    'I did run across that list, and it has value, but I tend to like to hear what actual owners have to say about their projectors.',
    'Well I did not just dip the toe in. I ordered an Epson 5050UB and a new receiver that I will use for the surround sound system.',
  ] as const;
  const replies = [
    'What do you feel you are missing with the old projector? I also have an old 1080p DLP and every time I watch it I remark how great it looks.',
    'If you are interested in a used machine I have a calibrated JVC with low lamp hours that I would sell for a fair price to a forum member.',
  ] as const;
  const page = `<html><head><title>Replacement projector recommendations</title></head><body><div class="p-body"><h1>Replacement projector recommendations</h1>
    <div class="block-body js-replyNewMessageContainer">
    ${card('JosephF', true, 'Jan 3, 2024', '<p>I have a quite old JVC RS2 in my basement home theater that has been a wonderful projector. The time has come to look at a replacement that can handle 4K.</p>')}
    ${card('bud16415', false, 'Jan 3, 2024', replies[0])}
    ${card('JosephF', true, 'Jan 3, 2024', answers[0])}
    ${card('ggery', false, 'Jan 4, 2024', replies[1])}
    ${card('JosephF', true, 'Jan 4, 2024', answers[1])}
    </div></div></body></html>`;

  it("reads the starter's name line of a reply as the name alone", () => {
    const out = extract(page, { url: 'https://www.example.com/threads/replacement-projector-recommendations.3291860/' });
    expect(out.text).toContain(answers[0]);
    expect(out.paragraphs).toContain('JosephF');
    expect(out.paragraphs).toContain('bud16415');
    expect(out.text).not.toContain('Discussion starter');
  });
});
