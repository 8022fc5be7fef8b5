import { extract } from '../../../src/extractors/text-density';

// Vanilla-shaped discussion: the opening post is rendered apart from the list of comments.
const comment = (i: number, user: string, body: string): string => `<li class="Item ItemComment" id="Comment_${i}">
  <div class="Comment"><div class="Item-Header CommentHeader"><div class="AuthorWrap"><span class="Author"><a href="/profile/${user}" class="Username">${user}</a></span></div>
  <div class="Meta CommentMeta"><span class="MItem DateCreated"><time title="March 2025" datetime="2025-03-1${i}T10:00:00+00:00">March 2025</time></span></div></div>
  <div class="Item-BodyWrap"><div class="Item-Body"><div class="Message userContent">${body}</div></div></div></div></li>`;
const html = `<html><head><title>Higher Logic has terminated open source Vanilla — Vanilla Forums</title></head><body>
<div id="Frame"><div class="Content MainContent"><div class="Discussion">
  <div class="PageTitle"><h1>Higher Logic has terminated open source Vanilla</h1></div>
  <div class="Item-Header DiscussionHeader"><span class="Author"><a href="/profile/Linc" class="Username">Linc</a></span><span class="MItem DateCreated">March 2025</span></div>
  <div class="Item-BodyWrap"><div class="Item-Body"><div class="Message userContent">
    <p>On 2 Dec 2024, I received this message from the vendor's Director of Software Engineering about the open source version.</p>
    <p>While I replied to this email, I received no response, and no such notice was posted here in December or since, so I am sharing the news myself.</p>
  </div></div></div></div>
  <h2 class="CommentHeading">Comments</h2>
  <ul class="MessageList DataList Comments">
    ${comment(1, 'K17', 'Really sad but I think we all saw it coming to an end. Good luck to everyone who kept it running for so long.')}
    ${comment(2, 'Staff', 'I regret that there has been some misunderstanding in our communications; no final decision has been made yet about the project.')}
    ${comment(3, 'Linc', 'Thanks for clarifying, although the notice I received said the decision was effective on January 1st of this year.')}
  </ul></div></div></body></html>`;

describe('a forum thread whose opening post sits apart from the replies', () => {
  const text = extract(html, { url: 'https://open.vanillaforums.com/discussion/39620/higher-logic-has-terminated-open-source-vanilla' }).text;

  it('keeps the opening post, before the replies', () => {
    expect(text).toContain('I received this message from the vendor');
    expect(text).toContain('so I am sharing the news myself');
    expect(text.indexOf('sharing the news myself')).toBeLessThan(text.indexOf('Really sad'));
  });

  it('keeps every reply', () => {
    for (const s of ['Really sad', 'no final decision has been made', 'effective on January 1st']) expect(text).toContain(s);
  });
});

describe('an opening post whose body holds headings and lists of links (content.ts openingPost)', () => {
  // Lemmy's shape (WCXB dev, tune part): a development update whose markdown body is a heading
  // per contributor and a list of linked pull requests under it, above the comment tree.
  const changes = [['sunaurus', 'Always save remote image data'], ['netbrum', 'Replace unwrap in tests'], ['dullbananas', 'Apply scheduled post limit to future posts']];
  const body = changes.map(([who, what], i) => `<h2 dir="auto">${who}</h2>\n<ul dir="auto"><li><a href="https://github.com/org/repo/pull/${i}" rel="noopener nofollow">${what}</a></li></ul>`).join('\n');
  const reply = (i: number, user: string, text: string): string => `<li class="comment" role="comment"><article class="details comment-node py-2"><div class="d-flex">
    <a class="person-listing" href="/u/${user}">${user}@example.social</a><span class="ms-1 text-muted">1y</span></div>
    <div class="md-div"><p dir="auto">${text} (reply ${i})</p></div></article></li>`;
  const page = `<html><head><title>Development Update 2024-10-04 - Lemmy</title></head><body><div id="app"><main class="container-lg">
    <div class="post-listing"><h1 class="h4 d-inline">Development Update 2024-10-04</h1><a class="person-listing" href="/u/dev">dev</a></div>
    <article class="col-12 card my-2 p-2" id="postContent"><div class="md-div">
    <p dir="auto">Here is our regular update that explains what we have been working on for the past two weeks, so that everyone can keep up with development.</p>
    ${body}
    <p dir="auto">If you like using it, and want to make sure that we will always be available to work on it, consider donating to support its development.</p>
    </div></article>
    <ul class="comments">${reply(1, 'db0', 'Adding local site settings to reject federated votes is a great idea, thank you.')}
    ${reply(2, 'blaze', 'Thanks for sharing and for your work! How far are you from the next release?')}
    ${reply(3, 'corgana', 'Post scheduling is huge, lots of good stuff in here, well done everyone.')}</ul>
    </main></div></body></html>`;
  const text = extract(page, { url: 'https://lemmy.example/post/21018364', forum: true }).text;

  it('keeps the body\'s headings and linked items with its paragraphs', () => {
    expect(text).toContain('regular update');
    for (const [who, what] of changes) {
      expect(text).toContain(who!);
      expect(text).toContain(what!);
    }
    expect(text).toContain('Thanks for sharing');
  });
});

describe("the opening post's header, apart from the replies (content.ts withPostHeader)", () => {
  const card = (user: string, date: string, body: string, extra = ''): string => `<article class="MessageCard${extra}">
    <div class="MessageCard__user-info"><div class="MessageCard__name-with-attributions"><a class="MessageCard__user-info__name" href="/members/${user}.1/">${user}</a></div>
    <div class="MessageCard__user-details">2,994 posts · Joined 2021</div></div>
    <div class="MessageCard__container"><a href="#post-1">#1</a> · <a href="#post-1"><time class="u-dt">${date}</time></a></div>
    <div class="message-body"><div class="bbWrapper">${body}</div></div></article>`;
  const replies = ['In-house movements, and a return of smaller cases now that every brand has been making forty-two millimetre divers for years.',
    'Bronze cases will keep going, I think, and more colourful dials, since the vintage look that was everywhere last year has peaked.',
    'I expect more titanium at lower prices, because the Chinese makers have shown that it can be done without cutting corners on the finish.'];
  const html = `<html><head><title>What will be the trend in the watch market in 2024?</title></head><body><div class="p-body">
    <h1 class="MessageCard__thread-title">What will be the trend in the watch market in 2024?</h1>
    <div class="MessageCard__thread-info">1.9K views 11 replies 12 participants last post by <a href="/members/x.2/">AardnoldArrdvark</a> <time class="u-dt">Jan 18, 2024</time></div>
    ${card('sanmartinwatch', 'Jan 14, 2024', '<p>With 2023 being the year that vintage style was popular and many Swiss brands gradually releasing smaller sized watches, what do you guys think will be the trend in the watch market in 2024?</p>', ' js-orig')}
    <div class="block-body js-replyNewMessageContainer">${replies.map((r, i) => card(`member${i}`, `Jan 1${5 + i}, 2024`, r)).join('')}</div>
    </div></body></html>`;

  it("keeps the opening post's poster name and date above its text, as each reply keeps its own", () => {
    const paragraphs = extract(html, { url: 'https://www.example.com/threads/trend-in-the-watch-market-in-2024.3291860/' }).paragraphs;
    const body = paragraphs.findIndex((p) => p.startsWith('With 2023 being'));
    expect(paragraphs.slice(body - 2, body)).toEqual(['sanmartinwatch', 'Jan 14, 2024']);
    expect(paragraphs).not.toContain('Jan 18, 2024');
  });
});
