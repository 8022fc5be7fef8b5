import { extract } from '../../../src/extractors/text-density';

const article = '<p>Digital marketing budgets cover search, paid ads, content and email, and each channel is priced in its own way.</p>'.repeat(40);
const page = (head: string, foot: string, title = 'Digital marketing costs'): string | undefined =>
  extract(`<html><head><title>${title}</title></head><body><h1>${title}</h1>${head}${article}${foot}</body></html>`).author;

describe('a "By" line far from the headline (an author box at the foot)', () => {
  it('names the author where it is the page\'s only "By" name', () => {
    expect(page('<p>06.18.2025</p>', '<div class="box"><div class="single-post__name">By Scott Kasun</div></div>')).toBe('Scott Kasun');
  });

  it('names no one where such lines name several people (teasers of other posts)', () => {
    expect(page('<p>06.18.2025</p>', '<div><h4>SEO pricing</h4><p>By Ana Ruiz</p></div><div><h4>PPC pricing</h4><p>By Li Wei</p></div>')).toBeUndefined();
  });
});

describe('"By" and the name in an element beside it', () => {
  it('reads a name in a button beside a "By" label', () => {
    expect(page('<div><span>By </span><button type="button">Chase Bernath</button><p>January 23, 2026</p></div>', '')).toBe('Chase Bernath');
  });

  it('reads none where the "By" labels of teaser cards name several people', () => {
    const teaser = (name: string): string => `<div class="teaser"><h4>Another post</h4><span> By <a href="/p/${name}">${name}</a></span></div>`;
    expect(page('', teaser('Ben Hon') + teaser('Ellie Plass'))).toBeUndefined();
  });
});

describe('a link to the author\'s page under /byline/', () => {
  it('names the author', () => {
    expect(page('', '<div><a href="/byline/matt-fitzgerald"><img alt=""><span>Matt Fitzgerald</span></a></div>')).toBe('Matt Fitzgerald');
  });
});

describe('the site\'s desk the byline and a "Written by" line both credit', () => {
  it('outranks a person a teaser card names further down', () => {
    const url = 'https://blog.everfit.io/personal-training-trend';
    const html = `<html><head><title>Personal training trends</title></head><body><h1>Personal training trends</h1>
      <div class="everfit-author-name"><a href="/author/everfit">Everfit Team</a></div><p>Nov 08, 2025</p>${article}
      <div class="everfit-author-name">Written by Everfit Team</div>
      <div class="card"><h4>Pricing your coaching</h4><div class="everfit-author-name">Written by Patryk Piekarczyk</div></div></body></html>`;
    expect(extract(html, { url }).author).toBe('Everfit Team');
  });
});

describe('the name most author elements give, far from the headline', () => {
  const card = (name: string): string => `<div class="post"><h4>Another post</h4><span class="author-name">${name}</span></div>`;

  it('names the author where they agree (an author box and the author\'s other posts)', () => {
    expect(page('', `<div class="box"><span class="author-name">Author’s Profile</span><span class="author-name">Ahmet Serhan</span></div>${card('Ahmet Serhan')}${card('Ahmet Serhan')}`)).toBe('Ahmet Serhan');
  });

  it('names the author from a single element that labels its name ("By …")', () => {
    // Shape of an article's own <footer> above its body, which the line cutting leaves out.
    expect(page('<footer class="author__meta"><div class="author__submitted"><div class="author__list"> By <article><div class="field"><a href="/user/tariqul-ayan">Tariqul Ayan</a></div></article></div> '
      + '<span class="author__meta-date">March 30, 2023</span></div></footer>', '')).toBe('Tariqul Ayan');
  });

  it('names no one from a single element or from elements naming several people', () => {
    expect(page('', card('Ahmet Serhan'))).toBeUndefined();
    expect(page('', card('Ana Ruiz') + card('Li Wei') + card('Ana Ruiz') + card('Sam Hale'))).toBeUndefined();
  });
});
