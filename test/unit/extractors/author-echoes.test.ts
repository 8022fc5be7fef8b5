import { dropAuthorEchoes } from '../../../src/extractors/author-echoes';
import { extract } from '../../../src/extractors/text-density';

const body = [
  'A New York man pleaded guilty on Tuesday to threatening to kill a member of Congress in a call to her office in April.',
  'Prosecutors said the man called the office and made threats against the congresswoman while using offensive language.',
  'He faces up to ten years in prison when he is sentenced in the spring, according to the office of the United States attorney.',
  'His lawyer said after the hearing that his client regretted the call and had accepted responsibility for what he said.',
];

describe('dropAuthorEchoes: a byline and an author box told by the author\'s name', () => {
  it('drops a name line and a "By" label above the body, and the name line and one-line bio under it', () => {
    const lines = ['By', 'Phil Helsel', ...body, 'Phil Helsel', 'Phil Helsel is a reporter for NBC News.'];
    expect(dropAuthorEchoes(lines, 'Phil Helsel')).toEqual(body);
  });

  it('drops a byline that adds the agency, and an "About" box heading', () => {
    expect(dropAuthorEchoes(['Tom Davies Associated Press', ...body], 'Tom Davies')).toEqual(body);
    expect(dropAuthorEchoes([...body, 'Über Moritz Bachmann', 'Als Sales Manager bildet er die Schnittstelle zum Vertrieb.'], 'Moritz Bachmann')).toEqual(body);
  });

  it('drops a closing bio that opens with the author\'s name, with the label and role lines above it', () => {
    const bio = 'Bhaval Patel is a Director (Operations) at Space-O Technologies, with twenty years of experience.';
    expect(dropAuthorEchoes([...body, 'Written by', bio], 'Bhaval Patel')).toEqual(body);
    expect(dropAuthorEchoes([...body, 'About the Authors', 'Senior Principal Software Engineer, Docker', 'Christian Dupuis is a software engineering leader.'], 'Christian Dupuis')).toEqual(body);
    expect(dropAuthorEchoes([...body, 'Rasmus is the founder of ERideHero and has tested 120 scooters.'], 'Rasmus Barslund')).toEqual(body);
    expect(dropAuthorEchoes([...body, 'Amit Samsukha, CTO at EmizenTech, writes about mobile apps.'], 'Amit Samsukha')).toEqual(body);
  });

  it('keeps a closing sentence about a brand that writes its own pages, and a bio far from the end', () => {
    const brand = [...body, 'Budlong is dedicated to empowering clients with expert plumbing engineering services.'];
    expect(dropAuthorEchoes(brand, 'Budlong')).toEqual(brand);
    const official = [...body, 'QCY is already embracing many of these trends with its range of headphones.'];
    expect(dropAuthorEchoes(official, 'QCY Official')).toEqual(official);
    const early = [...body.slice(0, 2), 'Phil Helsel is a reporter for NBC News.', ...body];
    expect(dropAuthorEchoes(early, 'Phil Helsel')).toEqual(early);
  });

  it('keeps a sentence that names the author, a line in the middle, a list of authors, and Chinese datelines', () => {
    const quoted = ['Phil Helsel said the call was recorded by the office.', ...body];
    expect(dropAuthorEchoes(quoted, 'Phil Helsel')).toEqual(quoted);
    const middle = [...body, 'Phil Helsel', ...body];
    expect(dropAuthorEchoes(middle, 'Phil Helsel')).toEqual(middle);
    const authors = ['Shangwen Sun, Alfredo Canziani, Jiachen Zhu', ...body];
    expect(dropAuthorEchoes(authors, 'Shangwen Sun')).toEqual(authors);
    const zh = ['記者陳鈞凱／台北報導', ...body];
    expect(dropAuthorEchoes(zh, '陳鈞凱')).toEqual(zh);
  });

  it('leaves the author box out of an extracted article whose classes name nothing', () => {
    const html = `<!doctype html><html lang="en"><head><title>Man pleads guilty to threatening to kill congresswoman</title>
<meta name="author" content="Sarah E. Needleman"></head><body><div class="x1"><h1>Man pleads guilty to threatening to kill congresswoman</h1>
<div class="x3">${body.map((p) => `<p>${p}</p>`).join('')}
<div class="x4"><div class="x5">Sarah E. Needleman</div><p>Sarah E. Needleman is a reporter for the Journal.</p></div></div></div></body></html>`;
    const page = extract(html);
    expect(page.author).toBe('Sarah E. Needleman');
    expect(page.text).toContain('pleaded guilty');
    expect(page.text).not.toContain('Needleman');
  });
});
