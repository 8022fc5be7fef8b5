import { isMap, isScalar, isSeq, Scalar, type Document } from 'yaml';

/**
 * `${NAME}` and `${NAME:-default}` in pipeline files, from variables the CLI passes in (so
 * credentials and ports stay out of committed files). `$${…}` escapes. A missing variable without
 * a default is an error naming it.
 */
export function interpolate(text: string, vars: Record<string, string | undefined>): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(/\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, escaped?: string, name?: string, fallback?: string) => {
    if (escaped) return whole.slice(1);
    const v = vars[name!];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    missing.push(name!);
    return whole;
  });
  return { text: out, missing: [...new Set(missing)] };
}

export interface MissingVariable {
  name: string;
  /** Source range of the scalar that names it. */
  range: [number, number];
  path: Array<string | number>;
}

/**
 * Substitutes variables into the parsed document's scalar values, never into its text: a value
 * holding a newline or ` #` stays one string, it cannot add keys or be cut, and `${…}` in a
 * comment or a key is left alone. An unquoted value becomes a number, boolean or null when the
 * substituted text is one (`shards: ${SHARDS}`); a quoted one stays a string.
 */
export function interpolateValues(doc: Document, vars: Record<string, string | undefined>): MissingVariable[] {
  const missing: MissingVariable[] = [];
  const walk = (node: unknown, path: Array<string | number>): void => {
    if (isMap(node)) {
      for (const pair of node.items) walk(pair.value, [...path, isScalar(pair.key) ? String(pair.key.value) : String(pair.key)]);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i]));
    } else if (isScalar(node) && typeof node.value === 'string' && node.value.includes('${')) {
      const { text, missing: names } = interpolate(node.value, vars);
      const range: [number, number] = [node.range?.[0] ?? 0, node.range?.[1] ?? 0];
      for (const name of names) missing.push({ name, range, path });
      node.value = node.type === Scalar.PLAIN && !node.tag ? coreScalar(text) : text;
    }
  };
  walk(doc.contents, []);
  return missing;
}

/** YAML 1.2 core schema resolution of a plain scalar's text; anything else stays a string. */
function coreScalar(text: string): string | number | boolean | null {
  if (/^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text) || /^0x[0-9a-fA-F]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}
