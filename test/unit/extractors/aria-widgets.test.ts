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

describe('a modal by its ARIA role (role=dialog) is no text (clean.ts)', () => {
  const purposes = ['Performance', 'Functional', 'Targeting'].map((k) => `<div class="toggle-row"><label>${k}<input type="checkbox"></label>
    <div class="description">These cookies track your online activity to help advertisers deliver more relevant advertising or to limit how many times you see an ad. They can share that information with other organizations or advertisers, and are persistent cookies of third-party provenance.</div></div>`).join('<hr>');
  const product = `<main><div class="product"><h1>Portman Lights P1 Retro Or EVO - 4 Units Roadcase</h1><div>BH # POP1REEVLRC4</div>
    <div>Expected availability: 2-4 Weeks</div><div>Free Standard Shipping</div><p>A rugged roadcase that holds four P1 Retro or P1 EVO fixtures, with foam inserts cut to each lamp, heavy-duty castors and recessed butterfly latches for touring.</p>
    <p>Be the first to ask a question about this item</p></div></main>`;

  it('leaves out a cookie-preferences modal that outweighs a short product page', () => {
    const page = extract(`<html><head><title>Portman Lights P1 Retro Or EVO - 4 Units Roadcase</title></head><body>${product}
      <div class="prefs" role="dialog" aria-labelledby="h"><h2 id="h">Manage your preferences</h2>${purposes}</div></body></html>`);
    expect(page.text).not.toContain('These cookies track');
    expect(page.text).toContain('holds four P1 Retro or P1 EVO fixtures');
  });

  it('keeps a sheet that says it is no modal (aria-modal="false")', () => {
    const page = extract(`<html><head><title>Arrival T-Shirt</title></head><body><main><h1>Arrival T-Shirt</h1>
      <section class="accordion"><h5>Description</h5><div class="sheet" role="dialog" aria-modal="false"><div class="content">
      <p>The Arrival T-Shirt is your admission to a new, purposeful approach to training. Created to encourage you to aspire more, perform more and achieve more, this gym top boasts fundamental performance technology for next-level results.</p>
      <p>Sweat-wicking technology and a lightweight material enable maximum movement and exertion, with flatlock seam lines and a straight hem.</p></div></div></section></main></body></html>`);
    expect(page.text).toContain('your admission to a new, purposeful approach');
  });

  it("reads the <aside> panel of such a sheet, beside a longer block of customers' reviews", () => {
    const review = (h: string, t: string): string => `<article class="review-card"><p>Verified buyer</p><h3>${h}</h3><p>${t}</p></article>`;
    const page = extract(`<html><head><title>Arrival T-Shirt</title></head><body><main><h1>Arrival T-Shirt</h1>
      <section class="accordion"><div aria-label="Description"><h5>Description</h5><div class="sheet" role="dialog" aria-modal="false">
      <aside class="sheet_aside"><div class="sheet-header"><h5>Description</h5></div><div class="sheet-content">
      <p><strong>REDEFINING YOUR POTENTIAL</strong></p>
      <p>The Arrival T-Shirt is your admission to a new, purposeful approach to training. Created to encourage you to aspire more, perform more and achieve more, this gym top boasts fundamental performance technology for next-level results.</p>
      <p>- Slim fit<br>- Lightweight material<br>- Sweat-wicking</p></div></aside></div></div></section>
      <div class="comments_list">${review('Wrong product', 'I bought this two weeks ago and my order was not anything even close to what it was supposed to be. I got training pants instead of a shirt, so two stars for effort.')}
      ${review('Awful', 'Incredibly small neck. Extra long length. Horrible material. It is like getting strangled in a dress made of cheap fabric, and the colour faded after one wash.')}
      ${review('Great fit', 'Fits really well across the shoulders and the material stays dry through a long session in the gym, I have bought three more in different colours since then.')}</div>
      </main></body></html>`);
    expect(page.text).toContain('your admission to a new, purposeful approach');
  });

  it('still drops an <aside> beside the text, or in a modal dialog', () => {
    const page = extract(`<html><head><title>A story</title></head><body><main><h1>A story</h1>
      <p>The council voted on Tuesday to extend the tram line to the harbour, after two years of consultations with residents and shop owners along the route.</p>
      <p>Work starts next spring and the first trams should run in the autumn of the following year, the council said in a statement.</p>
      <aside><p>Read also: the history of the harbour's old ferry line and why it closed in the sixties, in our archive.</p></aside>
      <div role="dialog"><aside><p>Subscribe to our newsletter for the week's most important stories, delivered every Friday morning.</p></aside></div>
      </main></body></html>`);
    expect(page.text).toContain('extend the tram line');
    expect(page.text).not.toContain('ferry line');
    expect(page.text).not.toContain('newsletter');
  });
});
