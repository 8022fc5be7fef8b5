import { extract } from '../../../src/extractors/text-density';

/**
 * A XenForo-shaped thread (WCXB dev, tune part: forums whose replies list the hosts or tools they
 * recommend, each item a linked name): posts of one shape, one holding a list of links.
 */
const post = (i: number, user: string, body: string): string => `<article class="message message--post js-post" data-author="${user}" id="js-post-${i}">
  <div class="message-inner"><div class="message-cell message-cell--user"><h4 class="message-name"><a href="/members/${user}.${i}/" class="username">${user}</a></h4></div>
  <div class="message-cell message-cell--main"><header class="message-attribution"><time class="u-dt" datetime="2025-01-0${i}T10:00:00+0000">Jan ${i}, 2025</time></header>
  <div class="message-content"><div class="message-userContent"><article class="message-body"><div class="bbWrapper">${body}</div></article></div></div>
  <footer class="message-footer"><div class="actionBar"><a href="/posts/${i}/reply" class="actionBar-action">Reply</a> <a href="/posts/${i}/report" class="actionBar-action">Report</a></div></footer>
  </div></div></article>`;

const html = `<html><head><title>Best server hosts 2025</title></head><body><div class="p-body"><h1 class="p-title-value">Best server hosts 2025</h1>
  <div class="block-body js-replyNewMessageContainer">
  ${post(1, 'ana', 'I am looking for a host for a small survival server, about twenty players, with good support and backups. What do you all use these days?')}
  ${post(2, 'ben', `These are the ones I have used and would recommend, in no particular order:<ul>
    <li><a href="https://host-one.example/">Host One game servers</a></li><li><a href="https://host-two.example/">Host Two dedicated machines</a></li>
    <li><a href="https://host-three.example/">Host Three budget plans</a></li></ul>All three have daily backups and a support desk that answers within the hour.`)}
  ${post(3, 'cai', 'Thanks, I went with the second one in the end and the migration took an evening. The support desk was quick to answer, as you said.')}
  </div></div></body></html>`;

describe('forum posts keep their lists of links (content.ts linkedItem)', () => {
  const text = extract(html, { url: 'https://www.example.org/threads/best-server-hosts-2025.691400/' }).text;

  it('keeps a reply\'s list of linked recommendations', () => {
    expect(text).toContain('Host One game servers');
    expect(text).toContain('Host Three budget plans');
    expect(text).toContain('All three have daily backups');
  });

  it('leaves the posts\' action buttons out', () => {
    expect(text).not.toMatch(/^Reply$/m);
    expect(text).not.toMatch(/^Report$/m);
  });
});
