import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { systemClock } from '../../../src/core/clock';
import { ErrorCodes } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { HttpFetcher } from '../../../src/fetchers/http-fetch';
import { RenderFetcher } from '../../../src/fetchers/render/render-fetch';
import type { FreshetError } from '../../../src/core/errors';

/** A tiny origin on 127.0.0.1: pages that reach for blocked addresses, robots-disallowed paths, heavy resources, or hang. */
function origin(otherPort: number): Promise<{ url: string; seen: string[]; agents: string[]; server: Server }> {
  const seen: string[] = [];
  const agents: string[] = [];
  const pages: Record<string, string> = {
    '/robots.txt': 'User-agent: *\nDisallow: /private/\n',
    '/guarded': `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div id="out">start</div>
<img src="/img/big.png"><video src="/media/clip.mp4" autoplay muted></video>
<link rel="preconnect" href="http://127.0.0.1:${otherPort}"><link rel="dns-prefetch" href="http://127.0.0.1:${otherPort}">
<script>
var out = document.getElementById('out');
function note(s) { out.textContent += ' ' + s; }
Promise.all([
  fetch('/public/data.json').then(function (r) { return r.json(); }).then(function (d) { note('public:' + d.v); }, function () { note('public:blocked'); }),
  fetch('/private/data.json').then(function () { note('private:read'); }, function () { note('private:blocked'); }),
  fetch('http://169.254.169.254/latest/meta-data/').then(function () { note('metadata:read'); }, function () { note('metadata:blocked'); }),
  fetch('http://10.0.0.1/').then(function () { note('lan:read'); }, function () { note('lan:blocked'); }),
  new Promise(function (done) {
    var w = new Worker(URL.createObjectURL(new Blob(["fetch(self.location.origin + '/public/worker.json').then(function () { postMessage('read'); }, function () { postMessage('blocked'); });"], { type: 'text/javascript' })));
    w.onmessage = function (e) { note('worker:' + e.data); done(); };
    w.onerror = function () { note('worker:error'); done(); };
    setTimeout(function () { note('worker:silent'); done(); }, 3000);
  }),
  new Promise(function (done) {
    var ws = new WebSocket('ws://' + location.host + '/ws');
    ws.onclose = function () { note('ws:closed'); done(); };
  }),
]).then(function () { out.setAttribute('data-done', '1'); });
</script></body></html>`,
    '/public/data.json': '{"v":42}',
    '/public/worker.json': '{}',
    '/private/data.json': '{"secret":true}',
    '/hang': '<!DOCTYPE html><html><body><p>about to hang</p><script>setTimeout(function () { for (;;) {} }, 0);</script></body></html>',
    '/fine': '<!DOCTYPE html><html><body><div id="x"></div><script>document.getElementById("x").textContent = "rendered fine";</script></body></html>',
  };
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    agents.push(req.headers['user-agent'] ?? '');
    if (req.url === '/moved') {
      res.writeHead(301, { location: '/fine' }).end();
      return;
    }
    const body = pages[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    const type = req.url!.endsWith('.json') ? 'application/json' : req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  server.on('upgrade', (req, socket) => {
    seen.push(`upgrade ${req.url ?? ''}`);
    socket.destroy();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, agents, server })));
}

describe('render: the plain fetcher guards every browser request', () => {
  it('applies robots.txt and the SSRF guard to script requests, blocks heavy resources, and recovers from a hung page', async () => {
    // A second listener that no request is meant for: any connection to it came from the browser itself.
    let stray = 0;
    const other = createNetServer((sock) => {
      stray += 1;
      sock.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const site = await origin((other.address() as AddressInfo).port);
    // Only this loopback address is allowed: everything private or link-local is refused.
    const retry = { max_attempts: 2, base_delay_ms: 10, max_delay_ms: 10, max_retry_after_secs: 60, jitter: 'none' as const };
    const http = new HttpFetcher({ allowed_cidrs: ['127.0.0.1/32'], retry: { max_attempts: 1 } } as never, { clock: systemClock, rng: seededRng(1), logger: silentLogger });
    const render = new RenderFetcher(
      { url_patterns: ['^http://127\\.0\\.0\\.1:\\d+/(guarded|hang|fine)$'], max_pages: 1, page_timeout_ms: 15_000, wait: { selector: '[data-done]' } },
      { http, retry, clock: systemClock, rng: seededRng(1), logger: silentLogger },
    );
    const quick = new RenderFetcher(
      { url_patterns: ['^http://127\\.0\\.0\\.1:\\d+/(hang|fine|moved)$'], max_pages: 1, page_timeout_ms: 1_500, wait: { network_idle: true, network_idle_ms: 100 } },
      { http, retry, clock: systemClock, rng: seededRng(1), logger: silentLogger },
    );
    try {
      const res = await render.fetch({ url: `${site.url}/guarded` });
      expect(res.text).toContain('public:42');
      expect(res.text).toContain('private:blocked');
      expect(res.text).toContain('metadata:blocked');
      expect(res.text).toContain('lan:blocked');
      const st = render.stats();
      expect(st.subrequestErrors[ErrorCodes.fetchRobotsDisallowed]).toBe(1);
      expect(st.subrequestErrors[ErrorCodes.fetchBlockedAddress]).toBe(2);
      expect(st.blocked['image']).toBeGreaterThanOrEqual(1);
      expect(st.blocked['media']).toBeGreaterThanOrEqual(1);
      expect(site.seen).not.toContain('/private/data.json');
      expect(site.seen.filter((u) => u.startsWith('/img/') || u.startsWith('/media/'))).toEqual([]);
      // Nothing reached the origin except through the plain fetcher: no browser User-Agent, no WebSocket.
      expect(res.text).toContain('ws:closed');
      expect(res.text).toContain('worker:read'); // a worker's request goes through the plain fetcher too
      expect(site.seen.filter((u) => u.startsWith('upgrade'))).toEqual([]);
      expect(site.agents.filter((a) => !a.startsWith('freshet/'))).toEqual([]);
      expect(render.stats().browser.refused).toBeGreaterThanOrEqual(1); // the WebSocket

      // A page stuck in a script: its budget runs out on every attempt, then the error goes back with its attempts.
      const hung = (await quick.fetch({ url: `${site.url}/hang` }).catch((e: unknown) => e)) as FreshetError;
      expect(hung.code).toBe(ErrorCodes.renderTimeout);
      expect(hung.fields['attempts']).toBe(2);
      // ...and the same fetcher renders the next page (the page, or the whole browser, was replaced).
      const fine = await quick.fetch({ url: `${site.url}/fine` });
      expect(fine.text).toContain('rendered fine');

      // A redirected document: fetched once by the plain fetcher, rendered at its final URL.
      const before = site.seen.filter((u) => u === '/fine').length;
      const moved = await quick.fetch({ url: `${site.url}/moved` });
      expect(moved.url).toBe(`${site.url}/fine`);
      expect(moved.redirects).toEqual([`${site.url}/fine`]);
      expect(moved.text).toContain('rendered fine');
      expect(site.seen.filter((u) => u === '/fine').length).toBe(before + 1);
      expect(site.agents.filter((a) => !a.startsWith('freshet/'))).toEqual([]); // the browser followed no redirect itself
      expect(stray).toBe(0); // no preconnect of its own either
    } finally {
      await render.close();
      await quick.close();
      await http.close();
      site.server.close();
      other.close();
    }
  });
});
