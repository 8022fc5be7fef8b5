import { isHiddenByClass } from '../../../src/extractors/clean';
import { parseHtml } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';
import { findElement } from '../../helpers/find-element';

const para = (topic: string, i: number): string =>
  `<p>${topic} ${i}: our team assesses your controls, finds the gaps that matter and helps you close them before the next audit comes around.</p>`;

/**
 * A service page's switcher: one category panel shown, its alike siblings hidden by the very same
 * mark (a `hidden` class word on list panels, the `hidden` attribute on tab contents), as a
 * static-site template renders tabs. A bare <div hidden> beside a bare <div> (a signed-in notice)
 * and a lone hidden pop-up are no switcher.
 */
function page(): string {
  const lists = ['work', 'personal', 'education'].map((c, k) => `<ul class="templates-list${k ? ' hidden' : ''}" data-category="${c}">
    ${[1, 2].map((i) => `<li><h4>Template ${c} ${i}</h4><p>Plan the ${c} week ${i} with recurring tasks, due dates and labels that keep everyone on track.</p></li>`).join('')}</ul>`).join('');
  const tabs = [1, 2, 3].map((t) => `<div${t > 1 ? ' hidden' : ''} class="tab__content" id="tab-${t}"><h3>Service ${t}</h3>${[1, 2].map((i) => para(`Tab ${t}`, i)).join('')}</div>`).join('');
  return `<html><head><title>Cybersecurity consulting</title></head><body>
    <main><h1>Cybersecurity consulting</h1>${[1, 2, 3].map((i) => para('Intro', i)).join('')}
    <div class="tabs">${tabs}</div><h2>Templates</h2><div class="switcher">${lists}</div>
    <div><div hidden><p>You are signed in: access to this page requires authorization, so try changing directories to see the full text.</p></div><div><p>Sign in to see more.</p></div></div></main>
    <div class="popup hidden"><p>Subscribe to our newsletter for monthly insights from our consultants, delivered to your inbox every first Monday.</p></div>
    </body></html>`;
}

const find = findElement;

describe('switched panels (collapsed-panels.ts)', () => {
  it('reads a hidden panel whose alike sibling is shown, not a bare hidden div or a lone pop-up', () => {
    const root = parseHtml(page());
    expect(isHiddenByClass(find(root, (el) => el.attribs.id === 'tab-2')!)).toBe(false);
    expect(isHiddenByClass(find(root, (el) => el.attribs['data-category'] === 'education')!)).toBe(false);
    expect(isHiddenByClass(find(root, (el) => el.name === 'div' && el.attribs.hidden !== undefined && !el.attribs.class)!)).toBe(true);
    expect(isHiddenByClass(find(root, (el) => el.attribs.class === 'popup hidden')!)).toBe(true);
  });

  it('keeps every panel in the text', () => {
    const out = extract(page());
    for (const t of [1, 2, 3]) expect(out.text).toContain(`Tab ${t} 2:`);
    expect(out.text).toContain('Plan the education week 2');
    expect(out.text).not.toContain('You are signed in');
    expect(out.text).not.toContain('Subscribe to our newsletter');
  });
});
