import { extract } from '../../../src/extractors/text-density';

// A news index of a consultancy site (WCXB page 0147, CC-BY-4.0, trimmed) with its class names
// hashed as a CSS-modules build hashes them: each post is an <article> of one template, the
// last one shown at length, the others by excerpt. No class word ties the posts together, and
// the line model takes the long post and the one above it alone.
const posts = `
<article class="x1k9d2mr xoqm9y4 x132l4wh x1l1juqb xay24uj xp1kgcp xu4flu3 x1seq8ap xezubhm x15qq5o4" id="x1qjkcg5">
<a href="/news/2025/11/26/international-management-consultancy-cylad-opens-office-in-vienna">International management consultancy CYLAD opens office in Vienna</a>
<p>International management consulting firm CYLAD has opened a new office in Austria, its tenth location worldwide. </p>
<a href="/news/2025/11/20/mercer-widens-pension-consultancy-reach-in-dach-region">Mercer widens pension consultancy reach in DACH region </a>
<p>Mercer Germany has started approaching clients across the DACH region with a joint consultancy offering developed in partnership with Vienna-based SLG Treasury.</p>
<time class="x1g8pjm1" datetime="2025-11-19">November 19, 2025</time>
<p>Argon &amp; Co, the global management consultancy specialising in operations strategy and transformation, is pleased to announce the arrival of new UK Partner, Amanda Khalaf. </p>
Comment
</a>
</article>
<article class="x1k9d2mr xoqm9y4 x132l4wh x1l1juqb xttptlg xuipjy2 x1mw0law x1seq8ap xezubhm x142sjia" id="xo6imkd">
<a class="x18zvrdo" href="/news/2025/11/18/two-thirds-of-surveyed-enterprises-in-emea-report-significant-productivity-gains-from-ai-finds-new-ibm-study#comments-outer-wrapper" title="Comments">
Comment
</a>
<h1 class="x394l4c">
<a href="/news/2025/11/18/two-thirds-of-surveyed-enterprises-in-emea-report-significant-productivity-gains-from-ai-finds-new-ibm-study">Two-thirds of surveyed enterprises in EMEA report significant productivity gains from AI, finds new IBM study</a></h1>
<time class="x1g8pjm1" datetime="2025-11-18">November 18, 2025</time>
<p>A new study from IBM (NYSE: IBM) reveals enterprises across Europe, the Middle East and Africa (EMEA) are already reporting significant productivity gains from using AI, with many expecting returns on their investments (ROI) within the next year. </p>
<a class="x18zvrdo" href="/news/2025/11/18/two-thirds-of-surveyed-enterprises-in-emea-report-significant-productivity-gains-from-ai-finds-new-ibm-study#comments-outer-wrapper" title="Comments">
Comment
</a>
</article>
<article class="x1k9d2mr xoqm9y4 x132l4wh xltfgwy xezubhm xt7n3y5" id="xqsi1f8">
<header class="x1hv4yn7 xoqm9y4">
<a class="x18zvrdo" href="/news/2025/11/10/why-professional-services-must-secure-ai-before-they-scale-it#comments-outer-wrapper" title="Comments">
Comment
</a>
</header>
<a href="/news/2025/11/10/why-professional-services-must-secure-ai-before-they-scale-it">Why Professional Services Must Secure AI Before They Scale It</a>
<time class="x1g8pjm1" datetime="2025-11-10">November 10, 2025</time>
<h3>The growing risk of unmanaged AI adoption</h3><p>Professional services firms are embracing AI to improve efficiency and client delivery. Yet many are implementing it faster than they can control it. Without strong governance, AI becomes a closed system that leaders struggle to monitor, explain or regulate. The result is greater risk to compliance, confidentiality and client trust.</p><p>Shadow AI, where staff use unapproved tools such as ChatGPT for daily work, has become increasingly common. It often begins with good intentions such as drafting client emails or summarising reports. However, once sensitive data is entered into public models, the firm loses control over information security and data protection.</p>
</article>
</article>`;

const page = (title: string): string => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><section>
${posts}</section></body></html>`;

describe('a news index of posts in boxes of one template', () => {
  it('reads the other posts beside the ones the line model chose', () => {
    const text = extract(page('Industry News')).text;
    expect(text).toContain('Shadow AI');
    expect(text).toContain('its tenth location worldwide');
    expect(text).toContain('new UK Partner');
  });

  it('leaves the other boxes out on the page of one post (its headline in a box)', () => {
    const text = extract(page('Two-thirds of surveyed enterprises in EMEA report significant productivity gains from AI, finds new IBM study')).text;
    expect(text).toContain('Shadow AI');
    expect(text).not.toContain('its tenth location worldwide');
  });
});
