import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a service page in a CMS's body field (utrecsports.org): paragraphs, a table of
 * prices that ends the run of dense lines, then a last section in the same flow (a heading and
 * a numbered list of steps), a button, and after it boxes of the template.
 */
function servicePage(): string {
  const para = (i: number): string => `<p>Paragraph ${i}: personal training with a certified coach builds a plan around your goals, your schedule and your fitness level, and sessions take place in the main gym.</p>`;
  const rows = ['Get Started|$55|$110', '2 sessions|$55|$110', '5 sessions|$145|$185', '10 sessions|$265|$330', '20 sessions|$450|$565', 'Buddy 5|$95|$120', 'Buddy 10|$180|$220']
    .map((r) => `<tr>${r.split('|').map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
  return `<html><head><title>Personal Training</title></head><body><nav><a href="/">Home</a> <a href="/fitness">Fitness</a></nav>
    <div class="main"><div class="content"><h1>Personal Training</h1>${Array.from({ length: 30 }, (_, i) => para(i + 1)).join('')}
    <h5>Packages</h5>${[1, 2, 3, 4].map(() => `<table><tbody>${rows}</tbody></table>`).join('')}<hr>
    <h5>How to Register</h5><ol>
    <li>Purchase your desired package or number of sessions on the <a href="/store">RecSports Online Store</a> before you book.</li>
    <li>Complete the required participant information packet, which asks about your health and your goals for the program.</li>
    <li>Your personal trainer will contact you to schedule your first appointment, so please allow up to fourteen days.</li></ol>
    <p><a class="button" href="/store">Register</a></p>
    <div class="author-box"><p>Written by the RecSports team. Follow us for more news and updates.</p></div>
    <p><a href="/related/1">Related: yoga classes this spring</a> (2024-03-01)</p></div></div></body></html>`;
}

describe('the flow after the last run (content.ts flowTail)', () => {
  it('keeps the last section after a table of prices, not the button or the boxes after it', () => {
    const page = extract(servicePage(), { url: 'https://www.example.edu/fitness/personal-training' });
    expect(page.text).toContain('Paragraph 5:');
    expect(page.text).toContain('How to Register');
    expect(page.text).toContain('Your personal trainer will contact you');
    expect(page.text).not.toContain('Written by the RecSports team');
    expect(page.text).not.toContain('Related: yoga classes');
  });
});

/**
 * The shape of a Sphinx guide (docs.ansible.com): each subsection a plain <section> inside the
 * one before, the last one ending with a "See also" admonition of links and their one-line
 * descriptions, after the run of dense lines.
 */
function sphinxGuide(): string {
  const para = (i: number): string => `<p>Paragraph ${i}: a playbook runs its plays in order from top to bottom, and within each play the tasks run in order against every host the play targets.</p>`;
  const pointer = (name: string, what: string): string => `<dt><a href="/${name}">${name}</a></dt><dd><p>${what}</p></dd>`;
  return `<html><head><title>Ansible playbooks</title></head><body><div class="wy-nav-side"><a href="/">Docs home</a></div>
    <div class="document"><div itemprop="articleBody"><section id="ansible-playbooks"><h1>Ansible playbooks</h1>${[1, 2, 3, 4, 5, 6].map(para).join('')}
    <section id="verifying-playbooks"><h2>Verifying playbooks</h2>${[7, 8, 9].map(para).join('')}
    <section id="ansible-lint"><h3>ansible-lint</h3>${[10, 11].map(para).join('')}
    <div class="admonition seealso"><p class="admonition-title">See also</p><dl class="simple">
    ${pointer('ansible-lint', 'Learn how to test playbook syntax')}${pointer('YAML Syntax', 'Learn about YAML syntax')}${pointer('General tips', 'Tips for managing playbooks in the real world')}
    ${pointer('Communication', 'Got questions? Need help? Want to share your ideas? Visit the Ansible communication guide')}</dl></div>
    </section></section></section></div></div>
    <footer><p>Copyright Ansible project contributors.</p></footer></body></html>`;
}

describe('the flow after the last run: subsections and admonition boxes (content.ts flowTail)', () => {
  it('keeps the "See also" box that ends the last subsection', () => {
    const page = extract(sphinxGuide());
    expect(page.text).toContain('Paragraph 11:');
    expect(page.text).toContain('Learn about YAML syntax');
    expect(page.text).toContain('Visit the Ansible communication guide');
    expect(page.text).not.toContain('Copyright Ansible');
  });
});
