import type { z } from 'zod';
import type { timelineResult } from '../schemas';
import { esc, layout, scriptJson } from './html';

type Timeline = z.infer<typeof timelineResult>;

/**
 * Post volume and sentiment over time for a query, drawn by uPlot (pinned in package.json, served
 * from node_modules): posts per interval and the mean sentiment score on a second axis, and the
 * same figures in a table.
 */
export function chartPage(q: string, interval: string, data: Timeline | undefined, error?: string): string {
  const points = data?.points ?? [];
  const rows = points.map((p) => `<tr><td>${esc(new Date(p.t).toISOString().slice(0, interval === 'hour' ? 16 : 10))}</td><td>${p.posts}</td><td class="positive">${p.positive}</td><td class="neutral">${p.neutral}</td><td class="negative">${p.negative}</td><td>${p.meanScore === null ? '–' : p.meanScore.toFixed(2)}</td></tr>`).join('');
  const body = `<h1>Volume and sentiment over time</h1>
<form class="q" method="get" action="/chart"><input type="text" name="q" value="${esc(q)}" placeholder="words (empty: every post)">
<select name="interval">${['hour', 'day', 'week'].map((v) => `<option${v === interval ? ' selected' : ''}>${v}</option>`).join('')}</select> <button>Draw</button></form>
${error ? `<p class="err">${esc(error)}</p>` : ''}
<div class="card"><div id="chart" data-points="${points.length}"></div></div>
<details><summary>${points.length} points as a table</summary><table><tr><th>from</th><th>posts</th><th>positive</th><th>neutral</th><th>negative</th><th>mean score</th></tr>${rows}</table></details>
<script src="/assets/uplot.js"></script>
<script>
const points = ${scriptJson(points)};
if (points.length > 0) {
  const data = [points.map((p) => p.t / 1000), points.map((p) => p.posts), points.map((p) => p.negative), points.map((p) => p.meanScore)];
  const el = document.getElementById('chart');
  window.chart = new uPlot({
    width: Math.min(1100, el.clientWidth || 1000), height: 360,
    series: [{}, { label: 'posts', stroke: '#1d3557', fill: 'rgba(29,53,87,0.12)', width: 2 },
      { label: 'negative', stroke: '#c1121f', width: 1.5 },
      { label: 'mean sentiment', stroke: '#2b9348', scale: 'score', width: 1.5, dash: [6, 4] }],
    axes: [{}, { label: 'posts' }, { side: 1, scale: 'score', label: 'sentiment score', grid: { show: false } }],
    scales: { score: { range: [-1, 1] } },
  }, data, el);
} else document.getElementById('chart').textContent = 'No matching posts.';
</script>`;
  return layout(`Chart: ${q || 'every post'}`, 'chart', body, '<link rel="stylesheet" href="/assets/uplot.css">');
}
