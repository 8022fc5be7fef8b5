/** Text into HTML (element content and quoted attribute values). */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A highlight fragment (matches between « and ») as HTML with <mark>, everything else escaped. */
export function highlighted(fragment: string): string {
  return esc(fragment).replace(/«/g, '<mark>').replace(/»/g, '</mark>');
}

/** JSON inside a <script> element: `<` escaped so no string in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans CJK SC",sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
header{background:#1d3557;color:#fff;padding:10px 20px;display:flex;gap:20px;align-items:baseline}
header b{font-size:17px} header a{color:#dfe8f3;text-decoration:none} header a.on{color:#fff;border-bottom:2px solid #8ecae6}
main{padding:16px 20px;max-width:1200px}
.card{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 16px;margin-bottom:16px}
.figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px;margin:8px 0}
.fig{background:#f3f5f8;border-radius:4px;padding:6px 10px} .fig span{display:block;color:#5c6670;font-size:12px} .fig b{font-size:18px}
table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #e6e9ed;padding:4px 8px;text-align:left;vertical-align:top} th{color:#5c6670;font-weight:600}
button{font:inherit;padding:3px 10px;border:1px solid #9aa5b1;border-radius:4px;background:#fff;cursor:pointer} button:hover{background:#eef2f6}
.state{padding:2px 8px;border-radius:10px;background:#d8f3dc} .state.paused{background:#ffe8a3}
mark{background:#ffe066;padding:0 1px} .hit{margin:10px 0;padding-bottom:8px;border-bottom:1px solid #eee} .meta{color:#5c6670;font-size:12px}
.facets{display:flex;gap:24px;flex-wrap:wrap} .facets ul{list-style:none;padding:0;margin:4px 0} .facets a{text-decoration:none}
form.q input[type=text]{width:320px;padding:4px} .err{color:#b00020} code{font-size:12px}
.positive{color:#2b9348} .negative{color:#c1121f} .neutral{color:#6c757d}
`;

export type Page = 'overview' | 'search' | 'chart' | 'dead-letters';

/** The page around every view: title, navigation, styles; `head` adds to <head>. */
export function layout(title: string, on: Page, body: string, head = ''): string {
  const nav: [Page, string, string][] = [['overview', '/', 'Crawl'], ['search', '/search', 'Search'], ['chart', '/chart', 'Chart'], ['dead-letters', '/dead-letters', 'Dead letters']];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · freshet</title><style>${STYLE}</style>${head}</head><body>
<header><b>freshet</b>${nav.map(([p, href, label]) => `<a href="${href}"${p === on ? ' class="on"' : ''}>${label}</a>`).join('')}<a href="/openapi.json">API</a></header>
<main>${body}</main></body></html>`;
}

/** The fetch every page uses for writes: JSON, so that no other site's form can post here. */
export const POST_SCRIPT = `
async function post(url, method) {
  const res = await fetch(url, { method: method || 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}`;
