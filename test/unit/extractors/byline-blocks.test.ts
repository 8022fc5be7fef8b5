import { extract } from '../../../src/extractors/text-density';

const article = '<p>Video production runs from the brief through the shoot to the edit, and each stage has its own checklist and owner.</p>'.repeat(6);
const under = (lines: string, title = 'Video production'): string | undefined =>
  extract(`<html><head><title>${title}</title></head><body><h1>${title}</h1>${lines}${article}</body></html>`).author;

describe('a blog platform\'s byline block under the headline: name, date, reading time', () => {
  it('reads a one-word name (a first name, a brand, a title and surname) above a date and a reading time', () => {
    expect(under('<p>Gabo</p><p>Jan 23</p><p>11 min read</p>')).toBe('Gabo');
    expect(under('<p>ServiceTitan</p><p>November 26th, 2024</p><p>10 Min Read</p>')).toBe('ServiceTitan');
    expect(under('<p>Dr. Allen</p><p>Jan 4</p><p>2 min read</p>')).toBe('Dr. Allen');
  });

  it('takes no one-word line for a name without the reading time under its date (a category label)', () => {
    expect(under('<p>Marketing</p><p>Jan 23</p>')).toBeUndefined();
  });

  it('counts a date without its year, or a relative one, as the dateline beside a full name', () => {
    expect(under('<p>Kalyn Keen</p><p>Jun 9</p>')).toBe('Kalyn Keen');
    expect(under('<p>Kalyn Keen</p><p>2 days ago</p>')).toBe('Kalyn Keen');
  });
});

describe('a byline\'s name where the element named for the author holds more than it', () => {
  it('reads the label\'s name ("Author Posted by Soliant on" / the date)', () => {
    expect(under('<div class="post-author"><span class="sr-only">Author</span> Posted by Soliant on</div><p>December 20, 2024</p>')).toBe('Soliant');
  });
});

describe('a long byline: several names, or a name with its job and firm', () => {
  it('keeps the names and drops the job', () => {
    expect(under('<p>Written by Dr Marna van der Merwe, Dr Dieter Veldsman, Erik van Vulpen</p><p>Reviewed by Monika Nemcova</p>'))
      .toBe('Dr Marna van der Merwe, Dr Dieter Veldsman, Erik van Vulpen');
    expect(under('<p>By: Benjamin Johnson, Sr. Director of Operations, Atlas Van Lines - 10+ Years in the Moving Industry</p>')).toBe('Benjamin Johnson');
  });
});

describe('a link to the author\'s page whose first and last names stand in elements of their own', () => {
  it('reads the name with a space between them', () => {
    const html = `<html><head><title>Social media agencies</title></head><body><h1>Social media agencies</h1>${article}
      <div class="related"><a href="/author/maria-mathioudaki/"><span>Maria</span><span>Mathioudaki</span></a></div></body></html>`;
    expect(extract(html).author).toBe('Maria Mathioudaki');
  });
});

describe('a paid post\'s tag after the byline\'s name', () => {
  it('is no part of the name ("Help Net Security Sponsored")', () => {
    expect(under('<p class="byline">Help Net Security Sponsored</p><p>November 24, 2025</p>')).toBe('Help Net Security');
  });
});
