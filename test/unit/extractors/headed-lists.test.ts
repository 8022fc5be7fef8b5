import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { withItemList, withListIntro } from '../../../src/extractors/item-list';
import { findItemLines } from '../../../src/extractors/items';
import { DEFAULT_SELECTION } from '../../../src/extractors/selection';
import { extract } from '../../../src/extractors/text-density';

/** A box of many linked labels (a mobile menu outside any <nav>): most of a category page's text. */
const menu = `<div class="links"><ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/c/${i}">Recipe category ${i}</a></li>`).join('')}</ul></div>`;
const recipes = ['Sticky Air Fryer Chicken Thighs', 'High Protein Cottage Cheese Bagels', 'Maple Roasted Honeynut Squash', 'Sticky Air Fryer Salmon Bites',
  'Fish Tacos with Mango Salsa', 'Crispy Air Fryer Sweet Potato Fries', 'Air Fryer Whole Chicken', 'Air Fryer Shrimp', 'Air Fryer Brussels Sprouts',
  'Air Fryer Peaches with Ricotta', 'Air Fryer Potato Chips', 'Air Fryer Pork Tenderloin'];
const card = (name: string, i: number, extra = ''): string => `<article class="post-${1000 + i} post entry"><header class="entry-header">
  <a class="entry-image-link" href="/recipes/${i}"><img src="/img/${i}.jpg" alt=""></a><h2 class="entry-title"><a href="/recipes/${i}">${name}</a></h2>${extra}</header></article>`;
const intro = `<div class="archive-description"><h1 class="archive-title">Healthy Air Fryer Recipes</h1>
  <p>Quick and healthy air fryer recipes, everything from air fryer breakfast to snacks to healthy air fryer dinners!</p>
  <p>We love our air fryer and how it makes everything crispy and delicious in record time with little to no oil.</p></div>`;
const page = (grid: string): string => `<html><head><title>Air Fryer Archives - Fit Foodie</title></head><body>${menu}${intro}
  <main class="content">${grid}</main><footer><p>Copyright 2025 Fit Foodie. All rights reserved.</p></footer></body></html>`;

describe('a grid of picture cards right under a category headline and its intro (items.ts headedList, item-list.ts)', () => {
  const html = page(recipes.map((r, i) => card(r, i)).join(''));

  it('finds the cards as items though the menu holds most of the page', () => {
    const items = findItemLines(toBlocks(parseHtml(html), true, false, true));
    expect(new Set(items?.values()).size).toBe(recipes.length);
  });

  it('reads the intro and every card title, not the menu', () => {
    const text = extract(html).text;
    expect(text).toContain('Quick and healthy air fryer recipes');
    for (const r of recipes) expect(text).toContain(r);
    expect(text).not.toContain('Recipe category 7');
  });

  it('leaves a shop grid of priced products to the page-share rule', () => {
    const shop = page(recipes.map((r, i) => card(r, i, `<div class="price">$${20 + i}.00</div>`)).join(''));
    expect(findItemLines(toBlocks(parseHtml(shop), true, false, true))).toBeUndefined();
  });

  it('leaves a gallery of captioned pictures that link to their image files out', () => {
    const gallery = page(recipes.map((r, i) => `<div class="col"><a class="image-lightbox" href="/img/${i}.jpg"><img src="/img/${i}-s.jpg" alt=""><p>${r}</p></a></div>`).join(''));
    expect(findItemLines(toBlocks(parseHtml(gallery), true, false, true))).toBeUndefined();
  });

  it('leaves the list under a Chinese story out: its few hundred Han characters are no intro', () => {
    const story = '衛生署國民健康局今日表揚通過認證的母嬰親善醫療院所，出人意料之外，推廣母嬰同室、全母乳哺育的認證成績由診所奪冠。'.repeat(6);
    const news = `<html><head><title>診所認證大勝醫院</title></head><body>${menu}<h1>診所認證大勝醫院</h1><p>${story}</p>
      <div class="more">${recipes.map((r, i) => `<div class="item"><a href="/n/${i}"><img src="/i/${i}.jpg" alt=""></a><a href="/n/${i}">更多生活新聞第${i}則：${r}</a></div>`).join('')}</div></body></html>`;
    expect(findItemLines(toBlocks(parseHtml(news), true, false, true))).toBeUndefined();
  });
});

describe('a list after the chosen text (item-list.ts introAbove)', () => {
  const grid = `<div class="grid">${recipes.map((r, i) => `<div class="card"><a href="/r/${i}"><img src="/i/${i}.jpg" alt=""></a><h3><a href="/r/${i}">${r}, a reader favourite for busy weeknights</a></h3></div>`).join('')}</div>`;
  const read = (html: string, chosenText: (t: string) => boolean): string[] => {
    const blocks = toBlocks(parseHtml(html), true, false, true);
    const items = findItemLines(blocks);
    expect(items).toBeDefined();
    const chosen = blocks.filter((b) => chosenText(b.text) && !items!.has(b));
    return withItemList(blocks, chosen, items, DEFAULT_SELECTION, blocks.find((b) => b.heading === 1)).map((b) => b.text);
  };

  it('reads the list whose intro the chosen text is (under the headline, shorter than the list)', () => {
    const html = `<html><body><h1>Weeknight Dinners</h1><p>Our favourite dinners for busy weeknights, all ready in thirty minutes.</p>${grid}</body></html>`;
    const text = read(html, (t) => t.startsWith('Our favourite'));
    expect(text).toContain(`${recipes[0]}, a reader favourite for busy weeknights`);
  });

  it('leaves the list under an article out: its text above the list is longer than an intro', () => {
    const body = Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i}: the story goes on about how the family cooks dinner on busy weeknights, what they buy and what they leave out of the basket.</p>`).join('');
    const html = `<html><body><h1>How one family cooks</h1>${body}${grid}</body></html>`;
    const text = read(html, (t) => t.startsWith('Paragraph'));
    expect(text).not.toContain(`${recipes[0]}, a reader favourite for busy weeknights`);
  });
});

describe('the intro right above a listing read as its items (item-list.ts withListIntro)', () => {
  const cards = recipes.map((r, i) => `<div class="card"><a href="/r/${i}"><img src="/i/${i}.jpg" alt=""><div class="card__content">${r}</div></a></div>`).join('');
  const html = (between: string): string => `<html><body><h1>Tomato Sauce Recipes</h1>${between}<div class="list"><div class="grid">${cards}</div></div></body></html>`;
  const blurb = '<div class="intro"><p>Our collection of tomato sauce recipes has something for every type of dish, whether you want pasta or a stew.</p></div>';
  const read = (page: string): string[] => {
    const blocks = toBlocks(parseHtml(page), true, false, true);
    const items = findItemLines(blocks);
    expect(items).toBeDefined();
    return withListIntro(blocks, blocks.filter((b) => items!.has(b)), items, blocks.find((b) => b.heading === 1)).map((b) => b.text);
  };

  it('reads the blurb between the headline and the first card', () => {
    expect(read(html(blurb))).toContain('Our collection of tomato sauce recipes has something for every type of dish, whether you want pasta or a stew.');
  });

  it('stops at a box of links between them (a filter, a menu), and reads no text above it', () => {
    const filters = `<ul class="filters">${['Pastas', 'Condiments and Sauces', 'Pasta Mains'].map((f) => `<li><a href="/f/${f}">${f}</a></li>`).join('')}</ul>`;
    expect(read(html(`${blurb}${filters}`))).not.toContain('Our collection of tomato sauce recipes has something for every type of dish, whether you want pasta or a stew.');
  });
});
