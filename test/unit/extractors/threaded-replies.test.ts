import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { findPostList } from '../../../src/extractors/forum-posts';
import { DEFAULT_SCORING, FORUM_SCORING, nodeValues } from '../../../src/extractors/scoring';
import { extract } from '../../../src/extractors/text-density';

/**
 * A threaded XenForo theme: the opening post rendered apart above the replies; each reply an
 * <article> followed by a wrapper of the replies to it (post, its replies, next post…).
 */
const card = (user: string, n: number, day: number, text: string): string => `
<article class="js-post california-nested-message" data-author="${user}"><div class="MessageCard"><header class="MessageCard__header">
<div class="MessageCard__user-info"><a class="MessageCard__user-info__name" href="/members/${user}.${n}/">${user}</a></div></header>
<span class="MessageCard__nested-postbit"><a href="#post-${n}">#${n}</a> <a href="#post-${n}"><time datetime="2025-03-${day}T09:06:19-0400">Mar ${day}, 2025</time></a></span>
<div class="message-content"><div class="bbWrapper">${text}</div></div></div></article>`;
const reply = 'The LED lights draw so little current that leaving the liftgate open overnight will not drain a healthy battery, in my experience.';
const nested = 'Agreed, although the dealer told me the module times the lights out after twenty minutes to protect the battery anyway.';
const opening = [
  'I just bought a 2024 model and I am wondering about the LED lights in the liftgate that light up the cargo area when it is open.',
  'If I leave the liftgate open for a few hours while working in the garage, will the lights drain the battery, or do they turn off?',
  'The manual does not say anything about a timeout and I would rather not find out the hard way with a dead battery in the morning.',
  'I also wonder whether it is possible to switch them off entirely, since I sometimes load the car at night and do not need them.',
].map((p) => `<p>${p}</p>`).join('');
const sidebar = Array.from({ length: 12 }, (_, i) => `<li><a href="/threads/${i}/">Other thread number ${i} about towing, tires and the infotainment system</a> <span>Started by member${i}, with several replies about the topic</span></li>`).join('');
const html = `<!doctype html><html lang="en"><head><title>2024 LED liftgate lights | Toyota Owners Forum</title></head><body>
<div class="p-body"><h1 class="p-title-value">2024 LED liftgate lights</h1>
<div class="california-first-post"><a href="/members/starter.1/">starter</a> <time>Mar 20, 2025</time><div class="bbWrapper">${opening}</div></div>
<div class="block-body js-replyNewMessageContainer">
${[1, 2, 3, 4].map((i) => `${card(`member${i}`, 2 * i, 20 + i, `${reply} (${i})`)}
<div class="california-nested-message-children-wrapper">${card(`nested${i}`, 2 * i + 1, 21 + i, `${nested} (${i})`)}</div>`).join('')}
</div></div><aside class="p-body-sidebar"><ul>${sidebar}</ul></aside></body></html>`;

describe('a threaded thread whose replies sit in wrappers beside the posts (findPostList)', () => {
  const text = extract(html, { url: 'https://www.example-owners.com/threads/2024-led-liftgate-lights.1797645/' }).text;

  it('keeps the opening post and every reply, nested ones too', () => {
    expect(text).toContain('will the lights drain the battery');
    for (const i of [1, 2, 3, 4]) {
      expect(text).toContain(`${reply} (${i})`);
      expect(text).toContain(`${nested} (${i})`);
    }
  });

  it("keeps each reply's header: its poster's name and date", () => {
    for (const name of ['member1', 'nested1', 'member4', 'nested4']) expect(text).toContain(name);
    expect(text).toContain('Mar 25, 2025');
  });
});

describe('the lists of such a thread (forum-posts.ts)', () => {
  const blocks = toBlocks(parseHtml(html));
  const values = nodeValues(blocks, { ...DEFAULT_SCORING, ...FORUM_SCORING });

  it('joins the posts and the wrappers of their replies into one list, of the posts\' shape', () => {
    const list = findPostList(blocks, values);
    expect(list?.posts.size).toBe(8);
    expect(list?.shape).toMatch(/^article\./);
  });
});
