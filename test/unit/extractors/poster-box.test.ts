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

/**
 * The shape of a vBulletin 4 thread on a board without avatars: each li.postbit wraps its header
 * (the date and the post's number), the poster's details and the post body in one
 * div.postdetails_noavatar, a class that says the box has no avatar.
 */
function vbulletinThread(): string {
  const post = (i: number, name: string): string => `<li class="postbit postbitim postcontainer old" id="post_${i}"><div class="postdetails_noavatar">
    <div class="posthead"><span class="postdate old"><span class="date">11-29-2024,&nbsp;<span class="time">0${i}:03 AM</span></span></span>
    <span class="nodecontrols"><a href="showthread.php?p=${i}#post${i}" class="postcounter">#${i}</a></span></div>
    <div class="userinfo_noavatar"><div class="contact"><div class="username_container"><a class="username offline" href="member.php?u=${i}"><strong>${name}</strong></a>
    <span class="usertitle">Junior Guru Wannabe</span></div></div><div class="userinfo_extra"><dl class="userstats"><dt>Join Date</dt><dd>Nov 2024</dd><dt>Posts</dt><dd>${i}2</dd></dl></div></div>
    <div class="postbody"><div class="postrow"><div class="content"><blockquote class="postcontent restore">Post ${i}: before buying hosting I check how long the provider has been in business,
    whether support answers at night, and where the servers are (${name}).</blockquote></div></div></div></div></li>`;
  return `<html><head><title>What do you check before buying hosting?</title><meta name="generator" content="vBulletin 4.2.5"></head><body>
    <div id="postlist"><ol id="posts" class="posts">${[post(1, 'HOSTLAR'), post(2, 'jonburnaby'), post(3, 'ezhost100')].join('')}</ol></div></body></html>`;
}

describe('poster box (clean.ts isPosterBox)', () => {
  it("keeps each post's date in a wrapper whose class says it has no avatar (postdetails_noavatar), not a poster box", () => {
    const text = extract(vbulletinThread(), { url: 'https://www.example.org/showthread.php?t=1930933' }).text;
    for (const d of ['11-29-2024, 01:03 AM', '11-29-2024, 02:03 AM', '11-29-2024, 03:03 AM']) expect(text).toContain(d);
    expect(text).toContain('Post 2:');
    expect(text).not.toContain('Junior Guru Wannabe');
  });

  it("leaves out a member's titles in a user_info list and the badge row, keeps the name and the post", () => {
    const text = extract(smfThread(), { url: 'https://www.example.org/community/index.php?topic=589061.0' }).text;
    expect(text).toContain('Kindred');
    expect(text).toContain('Post 3:');
    expect(text).not.toContain('SMF Friend');
    expect(text).not.toContain('Resident Overthinker');
    expect(text).not.toContain('Level 5');
  });
});
