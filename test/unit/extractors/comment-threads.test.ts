import { extract } from '../../../src/extractors/text-density';
import { isStampLine, markCommentThreads } from '../../../src/extractors/comment-threads';
import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { DEFAULT_SCORING, nodeValues } from '../../../src/extractors/scoring';

// Class names a build tool hashed: no "comment" word tells the thread apart.
const article = [
  'Our goal with hosting quarterly open threads is to give blog readers an opportunity to publicly raise comments or questions about our work.',
  'As always, you are also welcome to email us or to request a call with our staff if you have feedback you would prefer to discuss privately.',
  'We will try to respond promptly to questions or comments, and we read every one of them before our next quarterly review of the research.',
].map((p) => `<p>${p}</p>`).join('\n');

const comment = (name: string, stamp: string, text: string): string =>
  `<li class="x1f9a"><div class="xk2"><cite>${name}</cite> on <a href="#c">${stamp}</a> said:</div><div class="xq7"><p>${text}</p></div><div class="x9z"><a href="#r">Reply</a></div></li>`;

const thread = [
  comment('Milan', 'September 13, 2018 at 5:23 pm', 'Any update on how the follow-up paper will affect the recommendation for cash transfers this year, and when will it come out?'),
  comment('Catherine', 'September 13, 2018 at 6:02 pm', 'Hi Milan, we have not yet reviewed the paper, but plan to consider it as part of our year-end review of cash transfers mentioned in our post.'),
  comment('Alex', 'September 19, 2018 at 12:48 pm', 'Have you written anything about the trade-off between giving now and investing the money to give more in the future, when research has improved?'),
  comment('Jonah', 'September 20, 2018 at 9:15 am', 'I skimmed your report and did not see any analysis of the travel time lost on slower buses, which seems like it could matter a great deal here.'),
  comment('Catherine', 'September 21, 2018 at 3:40 pm', 'Hi Jonah, our best guess is that any effects on vehicle speed are small relative to the benefits, but we will look into it further this year.'),
].map((c) => c.replace(/<\/p>/, ' We would be glad to hear more about how you weigh this question, since readers of this blog have raised it several times over the past year and we have not yet written it up properly.</p>')).join('');

const page = `<!doctype html><html lang="en"><head><title>September 2018 open thread</title></head><body>
<div class="xa1"><div class="xb2"><h1>September 2018 open thread</h1>${article}</div>
<div class="xc3"><h3>5 Responses</h3><ol class="xd4">${thread}</ol></div></div></body></html>`;

describe('markCommentThreads: a reader-comment thread found by its shape', () => {
  it('leaves out a thread of stamped replies under an article whose classes name nothing', () => {
    const text = extract(page).text;
    expect(text).toContain('quarterly open threads');
    for (const s of ['follow-up paper', 'vehicle speed', 'said:', 'Reply']) expect(text).not.toContain(s);
  });

  it('reads a stamp as a day with a time of day, not a span of hours', () => {
    expect(isStampLine('Catherine on September 13, 2018 at 5:23 pm said:')).toBe(true);
    expect(isStampLine('# re: 很高兴入住博客堂 2004-12-27 12:46 flyingbirds')).toBe(true);
    expect(isStampLine('第一场(a)：12月11日下午1:30-3:30')).toBe(false);
    expect(isStampLine('September 13, 2018')).toBe(false);
  });
  it('leaves out what follows a heading quoting the headline, where the comments carry no stamp', () => {
    const bare = thread.replace(/ on <a href="#c">[^<]*<\/a> said:/g, ':');
    const quoted = page.replace('<h3>5 Responses</h3>', '<h3>5 Comments on &ldquo;September 2018 open thread&rdquo;</h3>').replace(thread, bare);
    const text = extract(quoted).text;
    expect(text).toContain('quarterly open threads');
    for (const s of ['Comments on', 'follow-up paper', 'vehicle speed']) expect(text).not.toContain(s);
  });
});

describe('markCommentThreads: a threaded discussion whose comments open with linked titles', () => {
  // Each comment opens with its linked title of several words (as teasers do) and holds its replies in a list of its own shape.
  const titled = (title: string, name: string, stamp: string, text: string, replies = ''): string =>
    `<li class="x7c"><div class="xh"><h4><a href="/comments?cid=${name}">${title}</a></h4><div class="xb">by ${name} on ${stamp}</div></div>`
    + `<div class="xt"><p>${text} We would be glad to hear more about how you weigh this question, since it has come up several times this year.</p>`
    + `<p>${text} Readers have raised it in every open thread so far, and a longer answer from the staff would help all of us who follow this work closely.</p></div>${replies ? `<ul class="xr">${replies}</ul>` : ''}</li>`;
  const reply = (name: string, text: string): string => titled('Re: What could go wrong here', name, 'Friday December 19, 2025 @09:12PM', text);
  const discussion = [
    titled('What could go wrong here now', 'ozmartian', 'Friday December 19, 2025 @08:08PM', 'How are juniors supposed to be mentored and gain on the job experience to become the seniors of the future then?',
      reply('martin', 'They know it is a gamble, but they are afraid of missing out on the next big thing in their industry.')),
    titled('This does not add up at all', 'Tschaine', 'Saturday December 20, 2025 @01:16AM', 'The claim that two engineers with an assistant beat ten without one does not match what I have seen at work.',
      reply('geekmux', 'The weak job market has everything to do with over-hiring during the pandemic and current uncertainty.')),
    titled('Career developer chiming in here', 'Zuck', 'Saturday December 20, 2025 @02:40AM', 'Decades at startups and multinational software companies, and that has been my experience with these tools too.'),
  ].join('');
  const story = `<div class="xa1"><h1>Grads find their degrees no longer guarantee jobs</h1>${article}</div><ul class="xd4">${discussion}</ul>`;
  const html = `<!doctype html><html lang="en"><head><title>Grads find their degrees no longer guarantee jobs</title></head><body>${story}</body></html>`;

  /** The lines marked as comments, and the title's line index as text-density.ts finds it (a heading equal to the title). */
  const marked = (page: string, title: string): string[] => {
    const blocks = toBlocks(parseHtml(page), true, false, true, true);
    const titleIndex = blocks.find((b) => b.heading > 0 && b.text === title)?.index;
    markCommentThreads(blocks, nodeValues(blocks, DEFAULT_SCORING), titleIndex, title);
    return blocks.filter((b) => b.inComments).map((b) => b.text);
  };
  const title = 'Grads find their degrees no longer guarantee jobs';

  it('marks the thread: replies nested in comments of their own shape make it no list of teasers', () => {
    const comments = marked(html, title).join('\n');
    for (const s of ['juniors supposed', 'afraid of missing out', 'over-hiring', 'Decades at startups']) expect(comments).toContain(s);
    expect(comments).not.toContain('quarterly open threads');
  });

  it('reads the story from the top where the line matching the title is the thread\'s own header below it', () => {
    // The story's headline names its source and matches no title; the thread's header repeats the title.
    const sourced = html.replace(`<h1>${title}</h1>`, `<h1>${title} (latimes.com)</h1>`).replace('<ul class="xd4">', `<h3>${title}</h3><ul class="xd4">`);
    const comments = marked(sourced, title).join('\n');
    for (const s of ['juniors supposed', 'afraid of missing out', 'over-hiring', 'Decades at startups']) expect(comments).toContain(s);
    expect(comments).not.toContain('quarterly open threads');
  });
});
