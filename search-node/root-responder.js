#!/usr/bin/env node
'use strict';
/* global URL, fetch */
/**
 * Test infrastructure for the engine matrix, not product code. Elasticsearch's integ-test zip has
 * no `GET /` handler (it lives in a module that zip leaves out), and every client asks `GET /`
 * first to learn the distribution and version. This answers it from `GET /_nodes/_local` and
 * forwards every other request to the node unchanged.
 *
 *   node search-node/root-responder.js LISTEN_PORT NODE_URL
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain Node script, run without a build
const http = require('node:http');

const [listenPort, nodeUrl] = [Number(process.argv[2]), process.argv[3]];
if (!Number.isInteger(listenPort) || !nodeUrl) {
  console.error('usage: root-responder.js LISTEN_PORT NODE_URL');
  process.exit(2);
}
const target = new URL(nodeUrl);

async function rootBody() {
  const res = await fetch(`${nodeUrl}/_nodes/_local?filter_path=cluster_name,nodes.*.name,nodes.*.version,nodes.*.build_hash`);
  if (!res.ok) throw new Error(`GET /_nodes/_local answered ${res.status}`);
  const info = await res.json();
  const node = Object.values(info.nodes ?? {})[0] ?? {};
  return JSON.stringify({
    name: node.name,
    cluster_name: info.cluster_name,
    version: { number: node.version, build_flavor: 'default', build_type: 'zip', build_hash: node.build_hash },
    tagline: 'You Know, for Search',
  });
}

http.createServer((req, res) => {
  if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
    rootBody().then(
      (body) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
        res.end(body);
      },
      (err) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `node not ready: ${err.message}`, status: 503 }));
      },
    );
    return;
  }
  const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  upstream.on('error', (err) => {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `node unreachable: ${err.message}`, status: 502 }));
  });
  req.pipe(upstream);
}).listen(listenPort, '127.0.0.1', () => console.log(`root responder on 127.0.0.1:${listenPort} -> ${nodeUrl}`));
