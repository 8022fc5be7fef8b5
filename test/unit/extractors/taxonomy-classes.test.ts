import { classWeight, roleClass } from '../../../src/extractors/clean';
import { parseHtml, findFirst, type DomElement } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';

// A WordPress post whose post_class files it under "product reviews" and tags it "social media",
// on a page with no og:type (so customers' reviews would be read as comments) and an author box
// beside it that is the only other prose on the page.
const paragraphs = [
  'Are you looking to start sewing, or to buy someone you love a sewing machine this year? I have sewn for forty years and tried every brand.',
  'The key to finding the best sewing machine is not the brand as much as your need: which one fits your budget, and which features you will use.',
  'All of the machines I recommend here have a drop-in bobbin, which is very easy for a beginner to master, and easy threading as well.',
  'Unless you want a luxury model that costs thousands, you can find the best deal by shopping online, and most shops ship within the week.',
].map((p) => `<p>${p}</p>`).join('\n');

const page = `<!doctype html><html lang="en"><head><title>Best Sewing Machines for Beginners</title></head><body>
<article class="post-257727 post type-post status-publish format-standard hentry category-sewing-product-reviews tag-social-media">
<h1>Best Sewing Machines for Beginners</h1><div class="entry-content">${paragraphs}</div></article>
<div class="author-box"><p>Angela first became a professional writer in kindergarten, selling her poetry in handwritten greeting cards for nickels
and dimes, her ice cream and snack money. This began a lifetime of love for writing, and treats. Her love of all things sewing began even
earlier, playing in her grandmother's sewing room. Angela lives at home in Georgia with her dogs, Axel and Jet, and her cat, Sammie.</p></div>
</body></html>`;

describe('taxonomy labels in a post\'s class', () => {
  it('reads a post filed under a category whose name holds a role word as the text', () => {
    const text = extract(page).text;
    expect(text).toContain('drop-in bobbin');
    expect(text).toContain('start sewing');
    expect(text).not.toContain('kindergarten');
  });

  it('strips the labels only where the class holds several of them', () => {
    expect(roleClass('post type-post status-publish category-product-reviews')).not.toContain('reviews');
    expect(roleClass('tag-cloud widget')).toBe('tag-cloud widget');
    const el = findFirst(parseHtml('<div class="widget tag-cloud">x</div>'), (d) => d.name === 'div') as DomElement;
    expect(classWeight(el)).toBe(-1);
  });
});
