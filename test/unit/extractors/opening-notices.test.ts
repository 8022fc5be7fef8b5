import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a GameFAQs board thread: the topic's h1, then a search box's heading ("What do
 * you need help on?") and the call to sign in for guests, then the message table whose rows are
 * the posts (the page marked a DiscussionForumPosting in its JSON-LD). Nothing between the headline and the first post is a post of its own.
 */
function boardThread(): string {
  const msg = (i: number, name: string): string => `<tr><td class="msg" id="message_${i}"><div class="msg_infobox"><span class="user"><a data-username="${name}" class="name menu_toggle"><b>${name}</b></a></span>
    <span class="post_time" title="2/21/2024 5:0${i}:00 AM">2 years ago</span><span class="message_num">#${i}</span></div>
    <div class="msg_body_box"><div class="msg_body newbeta"><div class="msg_text">Message ${i}: I expect a shadow drop or two today, the timing of this showcase says they want to own the news cycle (${name}).<br></div></div></div></td></tr>`;
  return `<html><head><title>Official Nintendo Direct Partner Showcase February 2024 Discussion Thread - Nintendo Switch Message Board - GameFAQs</title>
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Official Nintendo Direct Partner Showcase February 2024 Discussion Thread"}</script></head><body>
    <div id="content"><h1 class="page-title">Official Nintendo Direct Partner Showcase February 2024 Discussion Thread</h1>
    <div class="pod board_search"><div class="search_head"><span class="search_head_mobile">What do you need help on?</span> <span class="search_close">Cancel X</span></div>
    <div class="body"><fieldset><input type="text" placeholder="Search for help"></fieldset></div></div>
    <div class="pod pod_forumuser"><div class="board_nav"><ul class="paginate"><li>Page 1 of 12</li></ul></div></div>
    <div class="forum_anon">You're browsing the GameFAQs Message Boards as a guest. <a href="/user/register">Sign Up</a> for free (or <a href="/user/login">Log In</a> if you already have an account) to be able to post messages, change how messages are displayed, and view media in posts.</div>
    <div class="pod board_wrap"><div class="body"><table class="board message msg_list"><tbody>${[msg(1, 'Need2KnowLion'), msg(2, 'skier8390'), msg(3, 'PS4Warrior'), msg(4, 'longintonin')].join('')}</tbody></table></div></div></div>
    </body></html>`;
}

describe("an opening post's lines (content.ts openingPost)", () => {
  it("counts no engine notice as the opening post's text, so what stands beside it is no post either", () => {
    const text = extract(boardThread(), { url: 'https://gamefaqs.example.com/boards/189706-nintendo-switch/80702016' }).text;
    expect(text).toContain('Message 3:');
    expect(text).not.toContain('What do you need help on?');
    expect(text).not.toContain('browsing the GameFAQs Message Boards');
  });
});
