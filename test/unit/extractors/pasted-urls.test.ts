import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a phpBB thread (forums.raspberrypi.com): each post a div.post with div.postbody >
 * div.content, the poster's links pasted into the text between <br>s, the engine shortening
 * long ones ("https://github.com/raspberrypi/firmware ... ays/README").
 */
function phpBbThread(): string {
  const post = (i: number): string => `<div id="p${i}" class="post bg${i % 2}"><div class="inner"><div class="postbody">
    <p class="author"><a href="/memberlist.php?u=${i}" class="username">user${i}</a> » <time>Thu Nov 23, 2023 ${i}:15 pm</time></p>
    <div class="content">Post ${i}: the LED settings are documented in the overlays README, see the dtparam section for the power and activity LEDs.<br>
    <a href="https://github.com/raspberrypi/firmware/blob/master/boot/overlays/README-${i}" class="postlink">https://github.com/raspberrypi/firmware ... ays/README-${i}</a><br>
    After reboot ${i} the green one stays off; the red one follows the power state.</div></div></div></div>`;
  return `<html><head><title>Pi 5 LEDs</title><meta name="generator" content="phpBB"></head><body>
    <h2 class="topic-title">Turning off the Pi 5 LEDs</h2>
    <div class="page-body">${[1, 2, 3, 4].map(post).join('')}</div></body></html>`;
}

describe('pasted addresses in posts (content.ts linkedItem)', () => {
  it('keeps a link whose text is its address, as the poster pasted it', () => {
    const lines = extract(phpBbThread(), { url: 'https://forums.example.org/viewtopic.php?t=361697' }).text.split('\n');
    expect(lines.filter((l) => l.startsWith('https://github.com/raspberrypi/firmware'))).toHaveLength(4);
  });
});
