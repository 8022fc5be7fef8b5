import type { z } from 'zod';
import type { deadLetterList } from '../schemas';
import { esc, layout, POST_SCRIPT, queryString, scriptJson } from './html';

type List = z.infer<typeof deadLetterList>;

/** The dead letters of one pipeline, newest first, with their errors; requeue or drop each. */
export function deadLettersPage(pipelines: string[], pipeline: string | undefined, list: List | undefined, error?: string): string {
  const choose = `<form method="get" action="/dead-letters">Pipeline <select name="pipeline" onchange="this.form.submit()">${pipelines.map((n) => `<option${n === pipeline ? ' selected' : ''}>${esc(n)}</option>`).join('')}</select></form>`;
  const rows = (list?.items ?? []).map((d) => `<tr data-id="${esc(d.id)}"><td>${esc(new Date(d.atMs).toISOString().replace('T', ' ').slice(0, 19))}</td><td><code>${esc(d.code)}</code></td><td>${esc(d.stage)}</td>
<td>${d.subject ? `<code>${esc(d.subject)}</code>` : ''}${d.docId ? `<br><span class="meta">document ${esc(d.docId)}</span>` : ''}</td><td>${esc(d.message)}</td>
<td><button data-act="requeue">Requeue</button> <button data-act="drop">Drop</button> <a href="/api/pipelines/${encodeURIComponent(pipeline ?? '')}/dead-letters/${esc(d.id)}">JSON</a></td></tr>`).join('');
  const more = list?.next ? `<p><a href="/dead-letters${esc(queryString({ pipeline, before: list.next }))}">older</a></p>` : '';
  const body = `<h1>Dead letters</h1>${choose}${error ? `<p class="err">${esc(error)}</p>` : ''}
${list ? `<p><b data-total="${list.total}">${list.total}</b> dead letters. A requeued subject is due at once (a running worker visits it; should it fail again it comes back here); a requeued document is indexed again.</p>
<table><tr><th>when</th><th>code</th><th>stage</th><th>subject / document</th><th>error</th><th></th></tr>${rows}</table>${more}<p id="outcome" class="meta"></p>` : ''}
<script>${POST_SCRIPT}
document.addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-act]');
  if (!b) return;
  const row = b.closest('tr[data-id]');
  const base = '/api/pipelines/' + encodeURIComponent(${scriptJson(pipeline ?? '')}) + '/dead-letters/' + row.dataset.id;
  try {
    const r = b.dataset.act === 'requeue' ? await post(base + '/requeue') : await post(base, 'DELETE');
    document.getElementById('outcome').textContent = r.detail || 'dropped ' + row.dataset.id;
    row.remove();
  } catch (e) { document.getElementById('outcome').textContent = e.message; }
});
</script>`;
  return layout('Dead letters', 'dead-letters', body);
}
