import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a Simple Machines thread: each post a div.windowbg with div.poster (the name in an
 * h4, then ul.user_info: the member's title, group, post group, post count) beside div.postarea;
 * and of an Invision thread's badge row (div.ipsComment_badges > "Level 5") above each post.
 */
function smfThread(): string {
  const post = (i: number, name: string): string => `<div class="windowbg" id="msg${i}"><div class="post_wrapper">
    <div class="poster"><h4><a href="/index.php?action=profile;u=${i}">${name}</a></h4>
    <ul class="user_info"><li class="title">Resident Overthinker</li><li class="membergroup">SMF Friend</li><li class="postgroup">SMF Megaposter</li></ul></div>
    <div class="ipsComment_badges"><ul><li><strong class="ipsBadge">Level 5</strong></li></ul></div>
    <div class="postarea"><div class="keyinfo"><a href="/index.php?msg=${i}" class="smalltext">March ${i}, 2025, 10:0${i}:12 AM</a></div>
    <div class="post"><div class="inner">Post ${i}: we tried a summariser on the board for long threads, and members mostly ignored it after the first week.<br>
    The moderation helper was more useful, flagging spam before anyone had to read it (${name}).</div></div></div></div></div>`;
  return `<html><head><title>AI in SMF forums</title><meta name="generator" content="Simple Machines"></head><body>
    <div id="forumposts"><h2 class="display_title">How is everyone implementing AI?</h2>
    ${[post(1, 'Arantor'), post(2, 'Kindred'), post(3, 'Arantor'), post(4, 'Sesquipedalian')].join('<hr class="post_separator">')}</div></body></html>`;
}

describe('poster box (clean.ts isPosterBox)', () => {
  it("leaves out a member's titles in a user_info list and the badge row, keeps the name and the post", () => {
    const text = extract(smfThread(), { url: 'https://www.example.org/community/index.php?topic=589061.0' }).text;
    expect(text).toContain('Kindred');
    expect(text).toContain('Post 3:');
    expect(text).not.toContain('SMF Friend');
    expect(text).not.toContain('Resident Overthinker');
    expect(text).not.toContain('Level 5');
  });
});
