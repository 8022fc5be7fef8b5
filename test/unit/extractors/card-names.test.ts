import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { findItemLines } from '../../../src/extractors/items';
import { DEFAULT_SELECTION, selectLines } from '../../../src/extractors/selection';

describe("the name of a product card that repeats its picture's alt text (selection.ts)", () => {
  // A shop's category grid: a picture link (alt "<name> hover image"), then the name as a link, then the price.
  const names = ['Bamboo Motion-X Board', 'Inclining Walking Pad', '3-Drawer File Cabinet', 'Half Circle Desk Drawer', 'MoPac Wall Cleat',
    'Zilker Single Monitor Arm', 'Hanging Storage Cubby', 'Headphone Stand', 'Compact Desk Drawer', 'Foot Hammock'];
  const card = (name: string, i: number): string => `<div class="col-span-1 mb-10 flex flex-col"><a class="block w-full" href="/p/${i}">
    <div class="relative"><img alt="black" src="/i/${i}.jpg"><div class="relative"><img alt="${name} hover image" src="/h/${i}.jpg"></div></div></a>
    <div class="mr-5 flex flex-col"><a class="block font-medium" href="/p/${i}">${name}</a><div class="flex flex-col"><p class="mt-5">$${i}9+</p></div></div></div>`;
  const root = parseHtml(`<html><body><h1>Accessories for standing desks</h1><div class="col-span-full grid">${names.map(card).join('')}</div></body></html>`);
  const blocks = toBlocks(root, true, false, true);

  it('keeps it as the item\'s title, with the price', () => {
    const items = findItemLines(blocks);
    expect(items).toBeDefined();
    const kept = selectLines(blocks, { start: 0, end: blocks.length - 1, sum: 0 }, root, false, DEFAULT_SELECTION, new Map(), true, items).map((b) => b.text);
    for (const [i, name] of names.entries()) {
      expect(kept).toContain(name);
      expect(kept).toContain(`$${i}9+`);
    }
  });

  it('still drops such a line as a caption outside repeated items', () => {
    const kept = selectLines(blocks, { start: 0, end: blocks.length - 1, sum: 0 }, root, false, DEFAULT_SELECTION, new Map(), true).map((b) => b.text);
    expect(kept).not.toContain('Hanging Storage Cubby');
  });
});
