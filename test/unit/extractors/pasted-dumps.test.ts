import { extract } from '../../../src/extractors/text-density';

// A Discourse-shaped thread: one reply pastes a whole build log, another a short command.
const post = (n: number, user: string, body: string): string => `
<div class="topic-body crawler-post" itemprop="comment" itemscope itemtype="http://schema.org/Comment">
  <div class="crawler-post-meta"><span class="creator" itemprop="author"><a href="/u/${user}"><span itemprop="name">${user}</span></a></span>
  <span class="crawler-post-infos"><time itemprop="datePublished" datetime="2024-04-26T0${n}:28:00Z" class="post-time">April 26, 2024, ${n}:28am</time></span></div>
  <div class="post" itemprop="text">${body}</div>
</div>`;
const logLine = (i: number): string => `6:51:${String(i % 60).padStart(2, '0')} AM: Step ${i}: copying assets for page bundle ${i} to the publish directory`;
const log = Array.from({ length: 80 }, (_, i) => logLine(i)).join('\n');
const page = (dump: string): string => `<!doctype html><html lang="en"><head><meta name="generator" content="Discourse 3.3.0"><title>Deploy failed for unknown reason - Support</title></head><body>
<div id="main-outlet"><h1><a href="/t/deploy-failed/117253">Deploy failed for unknown reason</a></h1>
${post(1, 'tinterweb', '<p>All of a sudden the deployment has stopped: the build passes but the deploy step is cancelled without any message.</p><p>Here is the build log which passes.</p>'
  + `${dump}<p>Can anyone shed any light on what may be causing it?</p>`)}
${post(2, 'sid', '<p>The build is failing because you are using an unsupported version of node for functions, please upgrade it:</p><pre><code>AWS_LAMBDA_JS_RUNTIME=nodejs18.x</code></pre>')}
${post(3, 'tinterweb', '<p>Thanks, setting the runtime to a supported version fixed it and the site deploys again.</p>')}
</div></body></html>`;

describe.each([
  ['a <pre>', `<pre><code class="lang-auto">${log}</code></pre>`],
  ['inline <code> in a paragraph', `<p><code>${log}</code></p>`],
])('a log pasted into a forum post as %s (pasted-dumps.ts)', (_, dump) => {
  const text = extract(page(dump), { url: 'https://answers.example.com/t/deploy-failed/117253' }).text;

  it('keeps only the head of a code block of thousands of characters', () => {
    expect(log.length).toBeGreaterThan(4000);
    expect(text).not.toContain('copying assets for page bundle 40');
  });

  it('keeps the lines its scroll box shows before anyone scrolls', () => {
    expect(text).toContain('6:51:00 AM: Step 0: copying assets for page bundle 0 to the publish directory');
    expect(text).toContain('Step 5: copying assets for page bundle 5');
  });

  it('keeps the posts around it and a short code block', () => {
    for (const s of ['Here is the build log which passes.', 'Can anyone shed any light', 'AWS_LAMBDA_JS_RUNTIME=nodejs18.x', 'fixed it and the site deploys again']) expect(text).toContain(s);
  });
});
