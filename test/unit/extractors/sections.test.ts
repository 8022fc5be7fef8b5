import { extract } from '../../../src/extractors/text-density';

const para = (topic: string, i: number): string =>
  `<p>${topic} ${i}: this plan meets the recommended guide, with five portions of fruit and vegetables a day, and costs little to make at home.</p>`;

describe('multi-section articles', () => {
  it('keeps what lies between two parts of the article (a table of short cells), not only the parts', () => {
    const rows = ['Carrots|80g|160g|320g', 'Porridge oats|40g|80g|160g', 'Semi-skimmed milk|1 pint|2 pints|4 pints', 'Red lentils|50g|100g|200g',
      'Wholemeal bread|1 loaf|2 loaves|3 loaves', 'Tinned tuna|1 tin|2 tins|4 tins', 'Frozen peas|100g|200g|400g', 'Bananas|3|6|12',
      'Eggs|6|12|24', 'Spinach|100g|200g|400g', 'Yogurt|500g|1kg|2kg', 'Rice|200g|400g|800g']
      .map((r) => `<tr>${r.split('|').map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
    const page = extract(`<html><head><title>A week of budget meals</title></head><body><nav><a href="/">Home</a></nav>
      <section class="text-layout"><h1>A week of budget meals</h1>${[1, 2, 3, 4, 5].map((i) => para('Intro', i)).join('')}
      <h2>Weekly shopping list</h2><table><tbody>${rows}</tbody></table><table><tbody>${rows}</tbody></table>
      ${[1, 2, 3, 4].map((i) => para('Monday', i)).join('')}</section>
      <footer><p>© 2025 Heart charity. All rights reserved.</p></footer></body></html>`);
    expect(page.text).toContain('Intro 1: this plan');
    expect(page.text).toContain('Monday 4: this plan');
    expect(page.paragraphs).toContain('Semi-skimmed milk');
    expect(page.paragraphs).toContain('Wholemeal bread');
  });
});
