import { extract } from '../../../src/extractors/text-density';

/** An arXiv-style listing: <dt> with the paper's links, <dd> with its title, linked authors and subjects. */
function paper(i: number, title: string, authors: string[], subjects: string): string {
  return `<dt><a name="item${i}">[${i}]</a> <a href="/abs/2603.0${i}">arXiv:2603.0${i}</a> [<a href="/pdf/2603.0${i}">pdf</a>, <a href="/format/2603.0${i}">other</a>]</dt>
    <dd><div class="meta"><div class="list-title mathjax"><span class="descriptor">Title:</span> ${title}</div>
    <div class="list-authors">${authors.map((a) => `<a href="/search/cs?searchtype=author&query=${encodeURIComponent(a)}">${a}</a>`).join(', ')}</div>
    <div class="list-subjects"><span class="descriptor">Subjects:</span> <span class="primary-subject">${subjects}</span></div></div></dd>`;
}

const papers: [string, string[], string][] = [
  ['The Spike, the Sparse and the Sink: Anatomy of Massive Activations and Attention Sinks', ['Shangwen Sun', 'Alfredo Canziani', 'Jiachen Zhu'], 'Artificial Intelligence (cs.AI); Computation and Language (cs.CL)'],
  ['Towards Provably Unbiased LLM Judges via Bias-Bounded Evaluation', ['Benjamin Feuer', 'Lucas Rosenblatt', 'Oussama Elachqar'], 'Artificial Intelligence (cs.AI)'],
  ['Distributed Partial Information Puzzles: Examining Common Ground Construction Under Epistemic Asymmetry', ['Yifan Zhu', 'Mariah Bradford', 'Kenneth Lai'], 'Artificial Intelligence (cs.AI); Computation and Language (cs.CL)'],
  ['Dissociating Direct Access from Inference in AI Introspection', ['Harvey Lederman', 'Kyle Mahowald'], 'Artificial Intelligence (cs.AI); Computation and Language (cs.CL)'],
  ['Judge Reliability Harness: Stress Testing the Reliability of LLM Judges', ['Sunishchal Dev', 'Andrew Sloan', 'Joshua Kavner'], 'Artificial Intelligence (cs.AI)'],
  ['Legal interpretation and AI: from expert systems to argumentation and LLMs', ['Vaclav Janecek', 'Giovanni Sartor'], 'Artificial Intelligence (cs.AI)'],
];

describe('link lines of repeated items (item-links.ts)', () => {
  it('keeps the linked author line of every paper of a listing, between its kept title and subjects', () => {
    const nav = ['Help', 'Advanced Search', 'Login', 'About', 'Contact'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('');
    const page = extract(`<html><head><title>Artificial Intelligence authors and titles for recent submissions</title></head><body>
      <header><ul>${nav}</ul></header><div id="content"><h1>Artificial Intelligence</h1><h2>Authors and titles for recent submissions</h2>
      <dl>${papers.map(([t, a, s], i) => paper(i + 1, t, a, s)).join('\n')}</dl></div>
      <footer><ul>${nav}</ul></footer></body></html>`);
    // The last papers may fall past the content's end; the ones kept keep their authors.
    for (const [t, a] of papers.slice(0, 4)) {
      expect(page.text).toContain(t);
      expect(page.text).toContain(a.join(', '));
    }
    expect(page.text).not.toContain('Advanced Search');
  });

  it('leaves out a link label every card repeats word for word (a button)', () => {
    const cards = papers.map(([t, a, s], i) => `<div class="item"><h3>${t}</h3><div class="more"><a href="/similar/${i}">More like this</a></div>
      <p>${s}, by ${a.join(' and ')}, a study of how the models behave when they are asked to judge.</p></div>`).join('');
    const page = extract(`<html><head><title>Latest</title></head><body><main><div class="items">${cards}</div></main></body></html>`);
    expect(page.text).toContain(papers[0]![0]);
    expect(page.text).not.toContain('More like this');
  });
});
