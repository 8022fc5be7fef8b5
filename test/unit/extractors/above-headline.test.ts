import { extract } from '../../../src/extractors/text-density';

// A blog post whose box opens with a contact form's messages over the headline (a site builder's
// form, shown by a script), classes that say nothing: the form is the template's, the post starts at the <h1>.
const para = (n: number): string =>
  `<p>New vehicle sales in the area fell ten percent last month, despite low interest rates and clearance deals on last year's models, dealers said on Tuesday, part ${n}.</p>`;
const page = (above: string): string => `<!doctype html><html><head><title>New car sales plunge in October</title></head><body>
<div class="x1"><a href="/">Home</a> <a href="/business">Business</a></div>
<div class="x2">${above}
<h1 class="x3">New car sales plunge in October</h1>
<div class="x4">${[1, 2, 3, 4, 5].map(para).join('')}</div></div>
</body></html>`;

describe('cutAboveHeadline: a story starts at its headline', () => {
  it('leaves out what the post\'s box holds over the headline', () => {
    const form = '<div><h3>Contact us</h3><div>Thank you! Your message has been received!</div><div>Oops! Something went wrong while submitting the form.</div></div>';
    const text = extract(page(form)).text;
    expect(text).toContain('part 5');
    expect(text).not.toContain('Contact us');
    expect(text).not.toContain('Your message has been received');
  });

  it('keeps running text above the headline (an introduction before a section named like the page)', () => {
    const intro = '<p>This chapter explains how the branching model works, why it is light, and what happens to your files when you switch between two lines of work.</p>';
    const text = extract(page(intro)).text;
    expect(text).toContain('This chapter explains how the branching model works');
  });
});
