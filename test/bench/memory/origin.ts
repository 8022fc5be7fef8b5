import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';

/**
 * A site of `count` article pages of `pageBytes` each at /p/<i>.html: a short article (different on
 * every page) inside a large page of markup, inline data and SVG, the heavy shapes of real pages
 * (framework state in a script, icons, link tables). The filler is built once and shared, so the
 * server holds ~one page, not `count`. Odd pages are sent chunked (no Content-Length): the crawler
 * learns their size only as they arrive.
 */
export async function bigPageSite(count: number, pageBytes: number): Promise<{ url: string; urls: string[]; close(): Promise<void> }> {
  const filler = buildFiller(pageBytes - 16 * 1024);
  const server: Server = createServer((req, res) => {
    const m = /^\/p\/(\d+)\.html$/.exec(req.url ?? '');
    if (!m || Number(m[1]) >= count) {
      res.writeHead(404).end();
      return;
    }
    const i = Number(m[1]);
    const head = Buffer.from(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Report ${i}: the river at the weir</title></head><body>`);
    const tail = Buffer.from(`${article(i)}</body></html>`);
    const total = head.length + filler.length + tail.length;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(i % 2 === 0 ? { 'content-length': String(total) } : {}) });
    res.write(head);
    res.write(filler);
    res.end(tail);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    urls: Array.from({ length: count }, (_, i) => `${url}/p/${i}.html`),
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

function article(i: number): string {
  const paras = Array.from({ length: 12 }, (_, k) =>
    `<p>Report ${i}, part ${k}: the water at the weir rose ${(i * 7 + k) % 40} centimetres overnight, and the keepers opened the third gate before dawn. Residents downstream were told to move cars away from the towpath; the council will review the sluice schedule on ${1 + ((i + k) % 28)} March.</p>`).join('');
  return `<main><article><h1>Report ${i}: the river at the weir</h1><p class="byline">By the river desk</p>${paras}</article></main>`;
}

/** ~`bytes` of page furniture: a third inline JSON state, a third SVG paths, a third link tables. */
function buildFiller(bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  const third = Math.floor(bytes / 3);
  parts.push('<script id="__STATE__" type="application/json">{"items":[');
  for (let k = 0; n < third; k++) {
    const s = `${k ? ',' : ''}{"id":${k},"slug":"item-${k}","score":${(k * 37) % 1000},"tags":["a${k % 17}","b${k % 29}"]}`;
    parts.push(s);
    n += s.length;
  }
  parts.push(']}</script><svg xmlns="http://www.w3.org/2000/svg" width="0" height="0">');
  for (let k = 0; n < 2 * third; k++) {
    const s = `<path id="i${k}" d="M${k % 97} ${k % 89}L${(k * 3) % 101} ${(k * 7) % 103}C${k % 13} ${k % 11} ${k % 7} ${k % 5} ${k % 3} ${k % 2}Z"/>`;
    parts.push(s);
    n += s.length;
  }
  parts.push('</svg><nav><table class="links">');
  for (let k = 0; n < bytes; k++) {
    const s = `<tr><td><a href="/t/${k}">${k}</a></td><td>${(k * 13) % 997}</td></tr>`;
    parts.push(s);
    n += s.length;
  }
  parts.push('</table></nav>');
  return Buffer.from(parts.join(''));
}

/**
 * A TCP proxy in front of the search node that can go away: `down` refuses connections and
 * cuts open ones; `hang` accepts and swallows requests without an answer (sockets stay open).
 */
export async function faultyProxy(targetUrl: string): Promise<{ url: string; set(mode: 'up' | 'down' | 'hang'): void; close(): Promise<void> }> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let mode: 'up' | 'down' | 'hang' = 'up';
  const server = createTcpServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'down') {
      client.destroy();
      return;
    }
    if (mode === 'hang') {
      client.resume();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => undefined);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `${target.protocol}//127.0.0.1:${(server.address() as { port: number }).port}`,
    set(next) {
      // Going down, or coming back from a hang: every open connection is cut (the client reconnects).
      if (next === 'down' || (mode === 'hang' && next === 'up')) for (const s of sockets) s.destroy();
      if (next === 'hang') {
        for (const s of sockets) {
          s.unpipe();
          s.resume();
        }
      }
      mode = next;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
