import { extract } from '../../../src/extractors/text-density';

// A round-up article (no og:type: its metadata says nothing of the kind of page) whose template
// boxes each product's review in `product-review-card`: a header with the product's name and a
// button, then the writer's paragraphs on it. The review word would read them as customers'
// reviews, i.e. comments, and the article would end at its opening paragraph.
const card = (name: string, paragraphs: string[]): string => `<div class="wp-block-group product-review-card has-border-color">
<div class="wp-block-columns product-review-card card-header"><h3>${name}</h3><div class="wp-block-buttons"><a href="/visit/${name.length}">Visit website</a></div></div>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</div>`;

const page = `<!doctype html><html lang="en"><head><title>Best Accounting Software for the Self-Employed</title></head><body>
<article><h1>Best Accounting Software for the Self-Employed</h1>
<p>The right accounting software can save you hours each week by automating invoicing, tracking expenses and simplifying tax preparation for the year.</p>
${card('Ledgerly: Best overall', [
    'Ledgerly is the tool I recommend to most freelancers: it sends invoices, chases late payments and reconciles the bank feed every night without any help.',
    'Its reports are clear enough for a first tax return, and the mobile app scans receipts well, even crumpled ones photographed in a dim coffee shop.',
    'The cheapest plan limits you to one user and twenty invoices a month, which suits a sole trader but not a studio with two or three people working.',
  ])}
${card('Tallybook: Most affordable', [
    'Tallybook costs nothing for the core bookkeeping features and charges only for payroll and card payments, which makes it the cheapest pick here.',
    'The interface is plainer than the others, and support answers by email only, usually within a day, which was fast enough in every test I ran.',
    'It lacks project time tracking, so consultants who bill by the hour will need a second tool, or one of the paid options on this list instead.',
  ])}
</article>
<div class="author-box"><p>Dana has covered small-business software for ten years, after a career as a bookkeeper for restaurants and
shops. She tests every tool on this list with her own books for a month before she writes about it, and she lives in Ohio with two cats.</p></div>
<div class="site-footer"><p>Copyright 2025 Example Media. All rights reserved.</p></div></body></html>`;

describe('review boxes of a round-up article', () => {
  it('reads the writer\'s review boxes as the article\'s text', () => {
    const text = extract(page).text;
    expect(text).toContain('reconciles the bank feed');
    expect(text).toContain('project time tracking');
    expect(text).not.toContain('two cats');
  });
});
