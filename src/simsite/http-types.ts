import type { IncomingHttpHeaders } from 'node:http';

export interface SimRequest {
  method: string;
  pathname: string;
  /** Path and query as requested (what the request log records). */
  url: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Host header without port, lower-cased (robots.txt and site flavour are chosen by it). */
  host: string;
  client: string;
  /** Simulated time when the request arrived. */
  nowMs: number;
  /** Real time when the request arrived (bounds response-cache staleness). */
  realMs: number;
  body: string;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /** What the body is, so faults know how to corrupt it. */
  kind: 'json' | 'html' | 'text' | 'empty';
}

export type RouteHandler = (req: SimRequest) => SimResponse | null;

export function jsonResponse(value: unknown, status = 200): SimResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value), kind: 'json' };
}

export function htmlResponse(body: string | Buffer, contentType = 'text/html; charset=utf-8', status = 200): SimResponse {
  return { status, headers: { 'content-type': contentType }, body, kind: 'html' };
}

export function textResponse(body: string, status = 200): SimResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body, kind: 'text' };
}

export function ndjsonResponse(rows: readonly unknown[]): SimResponse {
  let body = '';
  for (const r of rows) body += `${JSON.stringify(r)}\n`;
  return { status: 200, headers: { 'content-type': 'application/x-ndjson; charset=utf-8' }, body, kind: 'text' };
}

/** The microblog "nothing here" body: HTTP 200 with ok:0 (end of a list, unknown user, hidden container). */
export const OK0_BODY = { ok: 0, msg: '这里还没有内容', data: { cards: [] } };

export function ok0(): SimResponse {
  return jsonResponse(OK0_BODY);
}

/** A body already serialised (hot paths assemble JSON from cached fragments). */
export function rawJsonResponse(body: string, status = 200): SimResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body, kind: 'json' };
}
