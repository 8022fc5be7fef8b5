import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a ranking article (stacyblackman.com): paragraphs, then a table whose rows name a
 * school and give its figures in cells of their own ("37% / 40%", "$175,000"), then more text.
 */
const para = (i: number): string => `<p>Paragraph ${i}: the rankings weigh peer assessment, recruiter opinion, placement success and student selectivity, and this year's list holds few surprises at the top.</p>`;
const schools = ['Chicago Booth', 'Kellogg', 'Wharton', 'MIT Sloan', 'Harvard', 'Tuck', 'Stanford', 'Michigan Ross'];

function rankingPage(bareGrid: boolean): string {
  const row = (name: string, i: number): string => `<tr>${bareGrid ? '' : `<td>${name} School of Business</td>`}<td>${i + 1}</td><td>${30 + i}% / ${40 + i}%</td><td>$${170 + i},000</td><td>3.${i}</td></tr>`;
  return `<html><head><title>MBA rankings</title></head><body><nav><a href="/">Home</a></nav><article><h1>MBA rankings</h1>
    ${[1, 2, 3, 4].map(para).join('')}<table><tbody>${schools.map(row).join('')}</tbody></table>${[5, 6, 7, 8].map(para).join('')}</article></body></html>`;
}

describe('figures in table rows (selection.ts)', () => {
  it('keeps the figures of a row that names what it measures', () => {
    const page = extract(rankingPage(false));
    expect(page.text).toContain('Chicago Booth School of Business');
    expect(page.text).toContain('30% / 40%');
    expect(page.text).toContain('$177,000');
    expect(page.text).toContain('Paragraph 8:');
  });

  it('leaves out a grid of bare figures', () => {
    const page = extract(rankingPage(true));
    expect(page.text).toContain('Paragraph 8:');
    expect(page.text).not.toContain('30% / 40%');
  });
});

/** The shape of a documentation overview (learn.microsoft.com): a table of scenarios, each named by a link to its page. */
function scenariosPage(headerLinks: boolean): string {
  const scenarios = ['Process file uploads', 'Process data in real time', 'Run AI inference', 'Run scheduled task', 'Build a scalable web API'];
  const row = (name: string, i: number): string => `<tr><td><a href="/scenarios#s${i}">${name}</a></td><td>Run code when event number ${i} happens in blob storage or a queue.</td></tr>`;
  const head = headerLinks ? '<tr><th><a href="?sort=name">Scenario name</a></th><th><a href="?sort=what">What it does</a></th></tr>' : '<tr><th>If you want to...</th><th>then...</th></tr>';
  return `<html><head><title>What is Azure Functions?</title></head><body><nav><a href="/">Home</a></nav><main><h1>What is Azure Functions?</h1>
    ${[1, 2, 3].map(para).join('')}<table><thead>${head}</thead><tbody>${scenarios.map(row).join('')}</tbody></table>${[4, 5, 6].map(para).join('')}</main></body></html>`;
}

describe('linked labels in table rows (selection.ts)', () => {
  it('keeps the linked name of a row whose other cell says in words what it is', () => {
    const page = extract(scenariosPage(false));
    expect(page.paragraphs).toContain('Process file uploads');
    expect(page.paragraphs).toContain('Build a scalable web API');
    expect(page.text).toContain('Run code when event number 0 happens');
  });

  it('leaves out the sort links of a header row', () => {
    const page = extract(scenariosPage(true));
    expect(page.paragraphs).not.toContain('Scenario name');
    expect(page.text).toContain('Run code when event number 0 happens');
  });
});
