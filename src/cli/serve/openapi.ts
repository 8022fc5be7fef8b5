import { z } from 'zod';
import type { Route } from './http';
import { errorBody } from './schemas';

type Json = Record<string, unknown>;

/** Hoists a schema's `$defs` into the components and points its refs there. */
function hoist(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  const text = JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/');
  const out = JSON.parse(text) as Json;
  const defs = (out['$defs'] ?? {}) as Record<string, Json>;
  for (const [name, def] of Object.entries(defs)) components[name] = def;
  delete out['$defs'];
  delete out['$schema'];
  return out;
}

/**
 * The OpenAPI 3.1 document of `freshet serve`'s JSON API, generated from the routes' zod schemas
 * (the same ones the router validates with). `freshet serve --write-openapi` writes it to
 * docs/openapi.json; a test regenerates it and compares.
 */
export function openApiDocument(routes: readonly Route[], version: string): Json {
  const components: Json = {};
  const paths: Record<string, Json> = {};
  const error = hoist(errorBody, 'output', components);
  for (const r of routes) {
    const parameters: Json[] = [];
    for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
      if (!schema) continue;
      const obj = hoist(schema, 'input', components);
      const required = new Set((obj['required'] as string[] | undefined) ?? []);
      for (const [name, prop] of Object.entries((obj['properties'] ?? {}) as Record<string, Json>)) {
        const { description, ...rest } = prop;
        parameters.push({
          name, in: where, required: where === 'path' || required.has(name),
          ...(typeof description === 'string' ? { description } : {}), schema: rest,
        });
      }
    }
    const op: Json = {
      operationId: r.operationId, summary: r.summary, tags: [r.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: hoist(r.body, 'input', components) } } } } : {}),
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: hoist(r.response, 'output', components) } } },
        default: { description: 'An error, with its reason on one line', content: { 'application/json': { schema: error } } },
      },
    };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'freshet serve',
      version,
      description: 'Watch and steer crawls, and search what they indexed. Loopback by default; bound elsewhere, every request needs `Authorization: Bearer <token>`.',
    },
    servers: [{ url: 'http://127.0.0.1:8790' }],
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Required when the server is bound to a non-loopback address (--token or FRESHET_SERVE_TOKEN).' } },
    },
    security: [{}, { bearer: [] }],
    paths,
  };
}
