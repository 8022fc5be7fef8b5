import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a XenForo thread (physicsforums, basenotes…): each post an article.message with
 * the poster box (div.message-userDetails) beside the text; a poster without a profile link
 * (the thread starter here) has the name in span.message-name > span.username, unlinked; the
 * others have it as a link. An Invision thread puts a reputation count after the linked name.
 */
function xenForoThread(): string {
  const post = (i: number, name: string, linked: boolean): string => `<article class="message message--post" data-author="${name}">
    <div class="message-inner"><div class="message-cell message-cell--user"><section class="message-user">
    <div class="message-userDetails"><span class="message-name">${linked ? `<a href="/members/${name}.${i}/" class="username">${name}</a>` : `<span class="username">${name}</span>`}</span></div>
    </section></div>
    <div class="message-cell message-cell--main"><header class="message-attribution"><time datetime="2024-10-08">Oct ${i}, 2024</time></header>
    <div class="message-content"><div class="bbWrapper">Post ${i}: I looked at the offer again this morning and the price is a quarter of the retail one, which makes me wonder where the keys come from.<br>
    Has anybody here bought from them and had the licence revoked later on?</div></div></div></div></article>`;
  return `<html><head><title>Buying Office 2024</title><meta name="generator" content="XenForo 2.2"></head><body>
    <h1 class="p-title-value">Buying Office 2024 but not from Microsoft</h1>
    <div class="block-body js-replyNewMessageContainer">${[post(1, 'paulb203', false), post(2, 'phinds', true), post(3, 'paulb203', false), post(4, 'FactChecker', true)].join('')}</div>
    </body></html>`;
}

function invisionThread(): string {
  const post = (i: number, name: string, rep: string): string => `<article class="cPost ipsBox ipsComment">
    <div class="cAuthorPane_mobile"><div class="cAuthorPane_content"><h3 class="ipsType_sectionHead cAuthorPane_author"><strong><a href="/profile/${i}-${name}/" class="ipsType_break">${name}</a></strong>
    <span title="Member's total reputation" class="ipsRepBadge">${rep}</span></h3></div></div>
    <div class="ipsColumn ipsColumn_fluid"><div class="ipsComment_meta"><a href="?do=findComment&amp;comment=${i}">Posted <time datetime="2024-03-05">March ${i}, 2024</time></a></div>
    <div class="cPost_contentWrap"><div data-role="commentContent" class="ipsType_richText">
    <p>Comment ${i}: the new interface mixes the sections together and the borders that told them apart are gone, which makes the notes harder to scan.</p>
    <p>I would like an option to go back to the previous look (${name}, ${i}).</p></div></div></div></article>`;
  return `<html><head><title>New UI 2024</title><meta name="generator" content="Invision Community"></head><body>
    <h1 class="ipsType_pageTitle">New UI 2024</h1>
    <div class="cTopic ipsClear">${[post(1, 'Soapm', '22'), post(2, 'PinkElephant', '9,292'), post(3, 'Soapm', '22'), post(4, 'Cristiano478', '5')].join('')}</div>
    </body></html>`;
}

describe('poster names (poster-names.ts)', () => {
  it('keeps an unlinked poster name held by an element named for it, as linked names are kept', () => {
    const lines = extract(xenForoThread(), { url: 'https://www.example-forum.com/threads/buying-office-2024.1066181/' }).text.split('\n');
    expect(lines.filter((l) => l === 'paulb203')).toHaveLength(2);
    expect(lines.filter((l) => l === 'phinds')).toHaveLength(1);
  });

  it('keeps a linked poster name that a reputation count follows on its line, without the count', () => {
    const text = extract(invisionThread(), { url: 'https://discussion.example.com/forums/topic/150745-new-ui-2024/' }).text;
    const lines = text.split('\n');
    expect(lines).toContain('PinkElephant');
    expect(lines).toContain('Cristiano478');
    expect(text).not.toContain('9,292');
    // "Posted", the permalink's label above the date, is no name.
    expect(lines).not.toContain('Posted');
    expect(text).toContain('Comment 3:');
  });
});
