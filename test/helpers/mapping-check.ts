import { join } from 'node:path';
import { loadTemplates } from '../../src/search/templates';

interface Prop {
  type?: string;
  properties?: Record<string, Prop>;
}

const MAPPINGS = join(__dirname, '..', '..', 'mappings');

/**
 * The fields of a document body a strict mapping would refuse (unmapped keys, or a value of the
 * wrong kind for its type), as `path: why`. Empty when the document would index. What OpenSearch
 * checks at index time, without a node, so parser tests can assert it on every document they make.
 */
export function unmappedFields(index: string, body: Record<string, unknown>): string[] {
  const template = loadTemplates(MAPPINGS).find((t) => t.name === index);
  if (!template) return [`${index}: no template`];
  const out: string[] = [];
  walk(body, template.body.template.mappings.properties as Record<string, Prop>, '', out);
  return out;
}

function walk(value: Record<string, unknown>, props: Record<string, Prop>, path: string, out: string[]): void {
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const p = props[key];
    const here = path ? `${path}.${key}` : key;
    if (!p) {
      out.push(`${here}: not in the mapping`);
      continue;
    }
    for (const item of Array.isArray(v) ? v : [v]) {
      if (p.properties) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) out.push(`${here}: object expected`);
        else walk(item as Record<string, unknown>, p.properties, here, out);
      } else if (!fits(p.type, item)) {
        out.push(`${here}: ${JSON.stringify(item)} is no ${p.type}`);
      }
    }
  }
}

function fits(type: string | undefined, v: unknown): boolean {
  switch (type) {
    case 'keyword':
    case 'text':
      return typeof v === 'string';
    case 'long':
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'float':
    case 'double':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'date':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v));
    default:
      return true;
  }
}
