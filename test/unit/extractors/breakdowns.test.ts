import { extract } from '../../../src/extractors/text-density';

const about = [
  'Explore a world of striking contrast and beauty, from living deserts and lush jungles to historic cities and hidden ruins.',
  'Immerse yourself in a deep campaign with hundreds of challenges that reward you for engaging in the activities you love.',
  'Take on awe-inspiring weather events such as towering dust storms as the seasons change the world every week.',
].map((p) => `<p>${p}</p>`).join('\n');

const langRow = (name: string, ticks: boolean[]): string =>
  `<tr><td class="ellipsis">${name}</td>${ticks.map((t) => `<td class="checkcol">${t ? '<span>✔</span>' : ''}</td>`).join('')}</tr>`;

// A game store page: the description, a supported-languages grid of ticks, and the review panel's tallies.
const storePage = (grid: string): string => `<!doctype html><html lang="en"><head><title>Horizon Racer on Store</title></head><body>
<div class="page_content"><h1 class="apphub_AppName">Horizon Racer</h1>
<div class="game_area_description"><h2>About This Game</h2>
${about}
</div>
<div class="block details_block"><div class="block_title">Languages:</div>
<table class="game_language_options"><tr><th></th><th class="checkcol">Interface</th><th class="checkcol">Full Audio</th><th class="checkcol">Subtitles</th></tr>
${grid}
</table></div>
<div class="game_area_description"><h2>Mature Content Description</h2>
${about.replace(/<p>/g, '<p>Again: ')}
</div>
<div class="user_reviews_filter_menu"><div class="title">Review Type</div>
<div><label>All (265,417)</label></div><div><label>Positive (236,425)</label></div><div><label>Negative (28,992)</label></div>
<div><label>Steam Purchasers (244,906)</label></div><div><label>Other (20,511)</label></div>
</div>
<div class="review_box"><p>Recommended. ${about.replace(/<\/?p>/g, ' ')}</p></div>
</div></body></html>`;

describe('dropBreakdowns: tallies beside a product text', () => {
  it('drops a grid of ticks and a run of labels with counts, keeps the description', () => {
    const grid = [langRow('English', [true, true, true]), langRow('Czech', [true, false, true]), langRow('Danish', [true, false, false]), langRow('Dutch', [true, false, true])].join('\n');
    const text = extract(storePage(grid)).text;
    expect(text).toContain('Immerse yourself in a deep campaign');
    for (const s of ['Czech', 'Danish', 'Full Audio', 'Positive (236,425)', 'Steam Purchasers']) expect(text).not.toContain(s);
  });

  it('keeps a comparison grid that marks the noes with crosses', () => {
    const row = (name: string, marks: string[]): string => `<tr><td>${name}</td>${marks.map((m) => `<td>${m}</td>`).join('')}</tr>`;
    const html = `<!doctype html><html lang="en"><head><title>Unicode in Python</title></head><body><article><h1>Unicode in Python</h1>
${about}
<table><tr><th>Feature</th><th>Standard</th><th>PyICU</th></tr>
${row('Character names and categories', ['✓', '✓'])}${row('Case-insensitive search', ['✗', '✓'])}${row('Transliteration', ['✗', '✓'])}${row('Word and line breaking', ['✗', ''])}
</table>${about}</article></body></html>`;
    const text = extract(html).text;
    expect(text).toContain('Case-insensitive search');
    expect(text).toContain('Transliteration');
  });

  it('keeps headings that end in a year in brackets', () => {
    const stats = ['Share of homes sold above asking (2024)', 'Median days on the market (2024)', 'Average sale-to-list ratio (2024)', 'Share of listings with price drops (2024)'];
    const html = `<!doctype html><html lang="en"><head><title>Hottest markets</title></head><body><article><h1>Hottest markets</h1>
${about}${stats.map((s) => `<div class="stat">${s}</div>`).join('')}${about}</article></body></html>`;
    const text = extract(html).text;
    for (const s of stats) expect(text).toContain(s);
  });

  it('drops a price listed in every currency of a switcher', () => {
    const rates = ['AED: 549.56AED', 'GBP: $110.82', 'AUD: $232.60', 'KWD: $46.060', 'USD: $149.64', 'CAD: $206.74'];
    const switcher = `<div class="price"><span class="amount">$149.64</span><ul class="currency-switcher">${rates.map((r) => `<li>${r}</li>`).join('')}</ul></div>`;
    const html = `<!doctype html><html lang="en"><head><title>Iris rust hemp dress</title></head><body><div class="product">
<h1>Iris rust hemp dress</h1>${switcher}<div class="summary">${about}</div>${switcher}<div class="tab">${about.replace(/<p>/g, '<p>Also: ')}</div></div></body></html>`;
    const text = extract(html).text;
    expect(text).toContain('Immerse yourself in a deep campaign');
    for (const r of ['GBP: $110.82', 'KWD: $46.060']) expect(text).not.toContain(r);
  });
});
