import { isDropped } from '../../../src/extractors/clean';
import { isCollapsedPanel } from '../../../src/extractors/collapsed-panels';
import { parseHtml } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';
import { findElement } from '../../helpers/find-element';

const para = (topic: string, i: number): string =>
  `<p>${topic} ${i}: the policy covers you and your riders for injuries, with limits that meet or exceed what the state requires, while you are online.</p>`;

/**
 * A service page whose coverage details sit in a tab strip (each inactive panel `role="tabpanel"`
 * with `display:none`, as a CMS's tabbed widget renders it) and whose FAQ is an accordion whose
 * folded panels carry `aria-hidden="true"` until a click. A mobile menu hidden the same way is no panel.
 */
function page(): string {
  const tabs = [1, 2, 3].map((t) => `<div class="tabbedWidget" role="tabpanel" id="tab-${t}"${t > 1 ? ' style="display: none;"' : ''}>
    <h3>Coverage ${t}</h3>${[1, 2].map((i) => para(`Tab ${t}`, i)).join('')}</div>`).join('');
  const faq = [1, 2, 3].map((q) => `<div class="faq-item"><h4>Question ${q}: what happens in an accident?</h4>
    <div class="c-collapsible c-accordion__panel" aria-hidden="true">${para(`Answer ${q}`, 1)}</div></div>`).join('');
  return `<html><head><title>Insurance for drivers</title></head><body>
    <div class="mobile-menu" aria-hidden="true"><ul><li><a href="/a">Ride</a></li><li><a href="/b">Drive</a></li></ul>
      <p>Sign up to drive and earn on your own schedule, with weekly payouts and support whenever you need it, day or night.</p></div>
    <main><h1>Insurance for drivers</h1>${[1, 2, 3].map((i) => para('Intro', i)).join('')}
    <div class="tabs">${tabs}</div><h2>Frequently asked questions</h2>${faq}</main>
    <footer><p>© 2025 Rides Inc.</p></footer></body></html>`;
}

const find = findElement;

describe('collapsed panels hidden by style or aria-hidden (collapsed-panels.ts)', () => {
  it('reads an inactive tab panel and a folded accordion panel, not a hidden menu', () => {
    const root = parseHtml(page());
    const tab = find(root, (el) => el.attribs.id === 'tab-2')!;
    expect(isCollapsedPanel(tab)).toBe(true);
    expect(isDropped(tab)).toBe(false);
    const fold = find(root, (el) => (el.attribs.class ?? '').includes('c-accordion__panel'))!;
    expect(isDropped(fold)).toBe(false);
    const menu = find(root, (el) => el.attribs.class === 'mobile-menu')!;
    expect(isDropped(menu)).toBe(true);
  });

  it('keeps every tab and every answer in the text', () => {
    const out = extract(page());
    for (const t of [1, 2, 3]) expect(out.text).toContain(`Tab ${t} 2:`);
    for (const q of [1, 2, 3]) expect(out.text).toContain(`Answer ${q} 1:`);
    expect(out.text).not.toContain('weekly payouts');
  });
});
