import type { z } from 'zod';

/** An answer other than 200 with a one-line reason (`{"error": …}`). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export type Method = 'GET' | 'POST' | 'DELETE';

export interface RouteInput {
  params: Record<string, string>;
  query: unknown;
  body: unknown;
}

/**
 * One operation of the JSON API: the router validates with its schemas and the OpenAPI file is
 * generated from them, so the two cannot disagree.
 */
export interface Route {
  method: Method;
  /** OpenAPI style: `/api/pipelines/{name}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  handle(input: RouteInput): Promise<unknown>;
}

/** Matches a request path against a route path; the path parameters, or undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1, -1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}
