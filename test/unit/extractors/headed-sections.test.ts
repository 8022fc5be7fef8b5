import { parseHtml, findFirst, type DomElement } from '../../../src/extractors/dom';
import { headedSiblings } from '../../../src/extractors/headed-sections';
import { extract } from '../../../src/extractors/text-density';

const rows = (n: number): string => Array.from({ length: n }, (_, i) =>
  `<tr><td>Sep ${i + 6}</td><td>Lecture ${i + 1}: tensor methods, spectral algorithms and their guarantees for mixtures</td><td><a href="n${i}.pdf">instructor notes</a>, slides</td></tr>`).join('\n');

/** A hand-written course page: plain <div>s, each under an <h4>, with rules between; the schedule table is the densest part. */
const coursePage = `<html><head><title>CS 224 Fall 23</title></head><body><div id="content">
<div id="pagetitle"><h3>Algorithms for Data Science, CS 224</h3></div>
<div>
  <h4>Course Details</h4>
  <p>This is a graduate-level topics class on algorithmic challenges arising in modern machine learning and data science more broadly.</p>
  <p>Time/Location: MW 2:15-3:30, in the lecture hall on the second floor of the science centre.</p>
</div>
<hr class="divider" />
<div>
  <h4>Announcements</h4>
  <ul><li><p>10/24: Problem set 4, the final one, is out; see the assignments below for its due date.</p></li>
  <li><p>10/10: Problem set 3 is out; office hours this week move to Thursday afternoon.</p></li></ul>
</div>
<hr class="divider" />
<div>
  <h4>Assignments</h4>
  <ul>${Array.from({ length: 8 }, (_, i) => `<li>Pset ${i} (due 10/0${i}): <a href="p${i}.pdf">PDF</a>, <a href="p${i}.tex">TeX</a></li>`).join('')}</ul>
</div>
<hr class="divider" />
<div>
  <h4>Miscellaneous Materials</h4>
  <ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="https://example.org/ref${i}">Reference text number ${i} on tensors</a></li>`).join('')}</ul>
</div>
<hr class="divider" />
<div>
  <h4>Lectures</h4>
  <table class="rg"><tr><th>Date</th><th>Topic</th><th>Notes</th></tr>${rows(30)}</table>
</div>
</div><div id="footer"><div>© Template</div></div></body></html>`;

describe('sections told by their headings (headed-sections.ts)', () => {
  it('finds the plain siblings that open with a heading of the same level', () => {
    const lectures = findFirst(parseHtml(coursePage), (e) => e.name === 'div' && e.children.some((c) => (c as DomElement).name === 'h4' && /Lectures/.test(JSON.stringify((c as DomElement).children.map((t) => (t as { data?: string }).data)))))!;
    expect(headedSiblings(lectures).length).toBe(4);
  });

  it('does not take teaser cards (linked headlines) or classed boxes for sections', () => {
    const root = parseHtml(`<div><div><h3>Main part</h3><p>x</p></div><div><h3><a href="/a">A story elsewhere</a></h3></div>
      <div><h3><a href="/b">Another story</a></h3></div><div class="box"><h3>Boxed</h3></div></div>`);
    const main = findFirst(root, (e) => e.name === 'div' && e.parent !== null && (e.parent as DomElement).name === 'div')!;
    expect(headedSiblings(main)).toEqual([]);
  });

  it('keeps every section of a course page, not only the schedule table', () => {
    const text = extract(coursePage).text;
    expect(text).toContain('Lecture 30: tensor methods');
    expect(text).toContain('This is a graduate-level topics class');
    expect(text).toContain('Problem set 3 is out');
  });
});
