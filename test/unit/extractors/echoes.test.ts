import { extract } from '../../../src/extractors/text-density';
import { isOwnUrlLine } from '../../../src/extractors/echoes';

const url = 'https://www.example-news.com/news/article/Car-sales-plunge-10-percent-in-October-14847624.php';
const paragraphs = [
  'Sales of new cars and trucks in the United States fell ten percent in October from a year earlier, the industry said on Monday, the steepest monthly drop since the spring of the year before.',
  'Dealers blamed higher prices and fewer incentives, while automakers pointed to two fewer selling days than last year.',
  'Analysts expect the full year to end near seventeen million vehicles, down about one percent from the year before.',
  'Trucks and sport-utility vehicles kept gaining share, and now account for seven in ten new vehicles sold nationwide.',
].map((p) => `<p>${p}</p>`).join('\n');

/** A news page whose class names say nothing (hashed): a print header spelling out the address, a gallery overlay repeating the headline. */
const page = `<!doctype html><html lang="en"><head><title>Car sales plunge 10 percent in October</title></head><body>
<div class="x1a"><div class="x2b"><img src="/logo.png" alt="logo"><span>${url}</span></div>
<h1 class="x3c">Car sales plunge 10 percent in October</h1>
<div class="x4d">${paragraphs}</div>
<div class="x5e"><div class="x6f">Car sales plunge 10 percent in October</div>
<div class="x7g"><p>A long row of unsold sports-utility vehicles sits at a dealership in Littleton, Colorado.</p></div></div>
</div></body></html>`;

describe('pageEchoes: lines that echo the page itself', () => {
  it('leaves out the page\'s own address', () => {
    const text = extract(page, { url }).text;
    expect(text).toContain('Dealers blamed higher prices');
    expect(text).not.toContain(url);
  });

  it('leaves out a second copy of the headline', () => {
    const text = extract(page).text;
    expect(text).toContain('Dealers blamed higher prices');
    expect(text).not.toContain('Car sales plunge 10 percent in October');
  });

  it('keeps a paragraph of the story that repeats the headline\'s sentence, in the box of the body\'s paragraphs', () => {
    const story = `<!doctype html><html lang="en"><head><title>That ending was horrible, I hated it_Daily</title></head><body>
<h1>That ending was horrible, I hated it</h1><div class="x4d">${paragraphs}<p>That ending was horrible, I hated it.</p>
<p>That ending was horrible, I hated it. We stayed for the credits anyway, hoping for a scene that would explain the last hour, and none came.</p></div></body></html>`;
    const text = extract(story).text;
    expect(text.match(/That ending was horrible, I hated it\./g)?.length).toBe(2);
  });

  it('tells the own address from another one, with or without www and a trailing slash', () => {
    expect(isOwnUrlLine('http://example-news.com/a/b/', ['https://www.example-news.com/a/b'])).toBe(true);
    expect(isOwnUrlLine('https://www.example-news.com/a/c', ['https://www.example-news.com/a/b'])).toBe(false);
    expect(isOwnUrlLine(`Read more at ${url}`, [url])).toBe(false);
  });
});
