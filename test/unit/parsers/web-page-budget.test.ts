import { parseCostBytes } from '../../../src/extractors/dom';
import { ByteBudget } from '../../../src/limits/byte-budget';
import type { FetchedText } from '../../../src/parsers/adapter';
import { readWithinBudget, type PageRead, type PageReader } from '../../../src/parsers/web-page-read';

const EMPTY_READ: PageRead = { docs: [], drops: [], links: [], newPostTimesMs: [], posts: 0, feeds: [] };
const table = (rows: number): string => `<table>${'<tr><td><a href="/t/1">1</a></td></tr>'.repeat(rows)}</table>`;

describe('parseCostBytes', () => {
  it('grows with the tags of the markup, not only its length', () => {
    const tags = table(1000);
    const text = `<p>${'x'.repeat(tags.length - 7)}</p>`;
    expect(text.length).toBe(tags.length);
    expect(parseCostBytes(tags)).toBeGreaterThan(5 * parseCostBytes(text));
    expect(parseCostBytes(tags)).toBe(2 * tags.length + 200 * (1 + 6 * 1000 + 1));
  });
});

describe('readWithinBudget', () => {
  it('reads a page only once its visit holds room for the body and the DOM: huge pages are read one at a time', async () => {
    const budget = new ByteBudget(1024 * 1024);
    const html = table(20_000);
    const page: FetchedText = { url: 'https://n.example/1', status: 200, text: html, fetchedAtMs: 0, bodyBytes: html.length };
    expect(page.text.length + parseCostBytes(html)).toBeGreaterThan(budget.limitBytes);
    let reading = 0;
    let most = 0;
    const finish: Array<() => void> = [];
    const reader: PageReader = {
      read: () => {
        most = Math.max(most, ++reading);
        return new Promise<PageRead>((resolve) => finish.push(() => {
          reading -= 1;
          resolve(EMPTY_READ);
        }));
      },
    };
    const visit = async (): Promise<void> => {
      const hold = budget.hold();
      // The body was read under the same hold.
      await hold.cover(html.length);
      try {
        await readWithinBudget(reader, { holdBytes: async (n) => hold.cover(n) }, page, 's', undefined);
      } finally {
        hold.release();
      }
    };
    const visits = [visit(), visit(), visit()];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      expect(finish.length).toBe(i + 1);
      finish[i]!();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(visits);
    expect(most).toBe(1);
    expect(budget.inUse).toBe(0);
  });

  it('reads at once where there is no budget, and small pages side by side', async () => {
    const budget = new ByteBudget(1024 * 1024);
    const small: FetchedText = { url: 'https://n.example/2', status: 200, text: table(10), fetchedAtMs: 0 };
    let reads = 0;
    const reader: PageReader = { read: () => (reads++, EMPTY_READ) };
    await readWithinBudget(reader, {}, small, 's', undefined);
    const holds = [budget.hold(), budget.hold()];
    await Promise.all(holds.map((h) => readWithinBudget(reader, { holdBytes: async (n) => h.cover(n) }, small, 's', undefined)));
    expect(reads).toBe(3);
    expect(budget.inUse).toBe(2 * (small.text.length + parseCostBytes(small.text)));
  });
});
