import { extract } from '../../../src/extractors/text-density';

describe('a scripted dropdown (role=listbox, role=option) is no text (clean.ts)', () => {
  it("leaves out a review filter's long choices beside a short product description", () => {
    const choices = ['Weight / strength training (e.g. weight training, weightlifting, bodybuilding, powerlifting)', 'Hiking',
      'Functional fitness training (e.g. circuits, bootcamp, HIIT)', 'Cycling', 'Team sports (e.g. Football, Basketball)',
      'Indoor cardio (e.g. treadmill, Stairmaster)', 'Outdoor walking or running', 'Mobility (E.g. Yoga, Pilates)'];
    const page = extract(`<html><head><title>Arrival T-Shirt</title></head><body><main>
      <section class="product"><h1>Arrival T-Shirt</h1><p>The Arrival T-Shirt is your admission to a new, purposeful approach to training. Created to encourage you to aspire more, perform more and achieve more, this gym top boasts fundamental performance technology for next-level results.</p>
      <p>Sweat-wicking technology and a lightweight material enable maximum movement and exertion, with flatlock seam lines and a straight hem.</p></section>
      <section class="reviews"><div class="review-filters"><label>Activity</label><div class="dropdown">
      <div role="combobox" aria-expanded="false"><span>Activity</span></div>
      <div class="dropdown_list" role="listbox">${choices.map((c, i) => `<div role="option" id="o${i}" aria-selected="false">${c}</div>`).join('')}</div>
      </div></div></section></main></body></html>`);
    expect(page.text).toContain('your admission to a new, purposeful approach');
    expect(page.text).not.toContain('Stairmaster');
    expect(page.text).not.toContain('bodybuilding');
  });
});
