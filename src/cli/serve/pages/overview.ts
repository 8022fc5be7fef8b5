import type { z } from 'zod';
import type { freshness, pipelineOverview } from '../schemas';
import { freshnessBlock } from './freshness';
import { esc, layout, POST_SCRIPT } from './html';

type Overview = z.infer<typeof pipelineOverview>;
type Freshness = z.infer<typeof freshness>;

/** The figures of a card: label, path in the overview JSON (the live refresh reads the same path). */
const FIGURES: [string, string][] = [
  ['requests sent', 'totals.requests'], ['pages/s', 'totals.pagesPerSec'], ['refused: quota', 'totals.refused.quota'],
  ['refused: politeness', 'totals.refused.politeness'], ['refused: robots', 'totals.refused.robots'], ['documents indexed', 'totals.indexed'],
  ['due now', 'frontier.dueNow'], ['scheduled', 'frontier.due'], ['leased', 'frontier.leased'], ['subjects', 'frontier.subjects'],
  ['dead letters', 'frontier.deadLetters'], ['visits/min (5 min)', 'frontier.visitsPerMin'], ['workers', 'workers.length'],
];

function at(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
}

function shown(v: unknown): string {
  if (typeof v !== 'number') return '–';
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

function errorRows(p: Overview): string {
  const rows = new Map<string, { visits: number; dead: number }>();
  for (const [code, n] of Object.entries(p.totals.failureCodes)) rows.set(code, { visits: n, dead: 0 });
  for (const [code, n] of Object.entries(p.deadLettersByCode)) rows.set(code, { visits: rows.get(code)?.visits ?? 0, dead: n });
  if (rows.size === 0) return '<p class="meta">No failed visits reported, no dead letters.</p>';
  return `<table><tr><th>reason</th><th>failed visits (running workers)</th><th>dead letters</th></tr>${[...rows].sort((a, b) => b[1].visits + b[1].dead - a[1].visits - a[1].dead)
    .map(([code, r]) => `<tr><td><code>${esc(code)}</code></td><td>${r.visits}</td><td>${r.dead}</td></tr>`).join('')}</table>`;
}

function card(p: Overview, f: Freshness | Error): string {
  const paused = p.control?.paused === true;
  return `<section class="card" data-pipeline="${esc(p.name)}">
<h2>${esc(p.name)} <span class="state${paused ? ' paused' : ''}" data-field="state">${paused ? 'paused' : 'running'}</span></h2>
<p class="meta">${esc(p.description ?? '')} · parser <code>${esc(p.parser)}</code> · schedule <code>${esc(p.schedule)}</code> · keys <code>${esc(p.namespace)}</code></p>
<p><button data-act="pause">Pause</button> <button data-act="resume">Resume</button> <button data-act="drain" title="every worker running now finishes what it holds and exits">Drain</button>
 <a href="/dead-letters?pipeline=${encodeURIComponent(p.name)}">dead letters</a> · <a href="/api/pipelines/${encodeURIComponent(p.name)}/limits">limits (JSON)</a></p>
<div class="figs">${FIGURES.map(([label, path]) => `<div class="fig"><span>${label}</span><b data-field="${path}">${shown(at(p, path))}</b></div>`).join('')}</div>
<h3>Errors by reason</h3><div data-block="errors">${errorRows(p)}</div>
<h3>Freshness</h3><div data-block="freshness">${freshnessBlock(f)}</div>
</section>`;
}

/**
 * Crawl overview: every pipeline's rates, backlog, errors by reason (refreshed every 2 s) and
 * freshness (refreshed every 30 s: the server recomputes it at most that often).
 */
export function overviewPage(pipelines: { overview: Overview; freshness: Freshness | Error }[]): string {
  const body = `<h1>Crawl</h1>${pipelines.map((p) => card(p.overview, p.freshness)).join('') || '<p>No pipeline served.</p>'}
<p class="meta">Counts of running workers are what each reported in the last seconds; the frontier figures are Redis's. Refreshed every 2 s; freshness every 30 s.</p>
<script>${POST_SCRIPT}
const at = (o, p) => p.split('.').reduce((v, k) => (v && typeof v === 'object' ? v[k] : undefined), o);
const shown = (v) => typeof v !== 'number' ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(1);
async function refresh() {
  try {
    const { pipelines } = await (await fetch('/api/pipelines')).json();
    for (const p of pipelines) {
      const card = document.querySelector('[data-pipeline="' + CSS.escape(p.name) + '"]');
      if (!card) continue;
      for (const el of card.querySelectorAll('b[data-field]')) el.textContent = shown(at(p, el.dataset.field));
      const st = card.querySelector('[data-field="state"]');
      const paused = p.control && p.control.paused;
      st.textContent = paused ? 'paused' : 'running';
      st.className = 'state' + (paused ? ' paused' : '');
      card.dataset.updated = String(Date.now());
    }
  } catch (e) { /* the next refresh tries again */ }
}
async function freshness() {
  for (const card of document.querySelectorAll('[data-pipeline]')) {
    const el = card.querySelector('[data-block="freshness"]');
    try {
      const res = await fetch('/fragments/freshness?pipeline=' + encodeURIComponent(card.dataset.pipeline));
      if (res.ok) el.innerHTML = await res.text();
    } catch (e) { /* the next refresh tries again */ }
  }
}
document.addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-act]');
  if (!b) return;
  const name = b.closest('[data-pipeline]').dataset.pipeline;
  try { await post('/api/pipelines/' + encodeURIComponent(name) + '/' + b.dataset.act); await refresh(); } catch (e) { alert(e.message); }
});
setInterval(refresh, 2000);
setInterval(freshness, 30000);
</script>`;
  return layout('Crawl', 'overview', body);
}
