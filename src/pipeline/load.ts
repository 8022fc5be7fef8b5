import { closeSync, openSync, readSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Pair, type YAMLMap } from 'yaml';
import { ErrorCodes, FreshetError } from '../core/errors';
import { interpolateValues } from './interpolate';
import { pipelineSchema, type PipelineConfig } from './schema';

export interface PipelineProblem {
  file: string;
  line: number;
  column: number;
  path: string;
  message: string;
}

/** Every key that repeats an earlier key of its mapping, with where it is. */
function duplicateKeys(root: unknown): Array<{ path: Array<string | number>; offset: number }> {
  const out: Array<{ path: Array<string | number>; offset: number }> = [];
  const walk = (node: unknown, path: Array<string | number>): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key)) out.push({ path: [...path, key], offset: pair.key.range?.[0] ?? 0 });
        seen.add(key);
        walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i]));
    }
  };
  walk(root, []);
  return out;
}

/** A file with thousands of problems is one mistake repeated: show the first ones and a count. */
export const MAX_PROBLEMS_SHOWN = 20;

function problemError(problems: PipelineProblem[], total = problems.length): FreshetError {
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
  const lines = shown.map((p) => `${p.file}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
  if (total > shown.length) lines.push(`… and ${(total - shown.length).toLocaleString('en-US')} more problems`);
  return new FreshetError(ErrorCodes.pipelineInvalid, 'critical', lines.join('\n'), { problems: shown, total_problems: total });
}

type Ranged = { range?: [number, number, number] | null } | null | undefined;

/**
 * Line and column of a key path. The deepest node of the path that exists is used, so a missing
 * key points at its parent; for a key that exists, at the key rather than its value. Each
 * mapping's keys are indexed once, so locating every key of a huge mapping stays linear.
 */
class Locator {
  private readonly keys = new WeakMap<object, Map<string, Pair>>();

  constructor(private readonly doc: Document, private readonly lines: LineCounter) {}

  at(path: ReadonlyArray<PropertyKey>): { line: number; col: number } {
    let node: unknown = this.doc.contents;
    let offset = (node as Ranged)?.range?.[0];
    for (const seg of path) {
      let next: unknown;
      let at: number | undefined;
      if (isMap(node)) {
        const pair = this.pairsOf(node).get(String(seg));
        if (!pair) break;
        next = pair.value;
        at = (pair.key as Ranged)?.range?.[0];
      } else if (isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
        next = node.items[seg];
        at = (next as Ranged)?.range?.[0];
      } else {
        break;
      }
      node = next;
      if (at !== undefined) offset = at;
    }
    const { line, col } = this.lines.linePos(offset ?? 0);
    return { line, col };
  }

  private pairsOf(map: YAMLMap): Map<string, Pair> {
    let index = this.keys.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (!index.has(k)) index.set(k, pair);
      }
      this.keys.set(map, index);
    }
    return index;
  }
}

/** Parses and validates pipeline text; every problem names the file, line, column and key path. */
export function parsePipeline(text: string, file: string, vars: Record<string, string | undefined> = {}): PipelineConfig {
  const lines = new LineCounter();
  // yaml's own uniqueKeys check compares each key with every earlier one (minutes for 50,000
  // keys); duplicateKeys does it in one pass.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    throw problemError(doc.errors.slice(0, MAX_PROBLEMS_SHOWN).map((e) => {
      const { line, col } = lines.linePos(e.pos[0]);
      return { file, line, column: col, path: '', message: e.message.split('\n')[0]! + flowHint(text, e.pos[0]) };
    }), doc.errors.length);
  }
  const duplicates = duplicateKeys(doc.contents);
  if (duplicates.length > 0) {
    throw problemError(duplicates.slice(0, MAX_PROBLEMS_SHOWN).map(({ path, offset }) => {
      const { line, col } = lines.linePos(offset);
      return { file, line, column: col, path: path.join('.'), message: 'Map keys must be unique' };
    }), duplicates.length);
  }
  const missing = interpolateValues(doc, vars);
  if (missing.length > 0) {
    throw problemError(missing.map(({ name, range, path }) => {
      const at = text.slice(range[0], range[1]).indexOf(`\${${name}`);
      const { line, col } = lines.linePos(range[0] + Math.max(0, at));
      return { file, line, column: col, path: path.join('.'), message: `variable ${name} is not set and has no default` };
    }));
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (err) {
    // yaml refuses alias chains that would expand exponentially ("billion laughs") by throwing.
    const { line, col } = lines.linePos(firstAliasOffset(text));
    throw problemError([{ file, line, column: col, path: '', message: `cannot expand the document: ${(err as Error).message}` }]);
  }
  const parsed = pipelineSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  // Listed cheaply first (50,000 unknown keys are one issue); only the ones shown are located.
  const found: Array<{ path: PropertyKey[]; message: string }> = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) found.push({ path: [...issue.path, key], message: 'unknown key' });
    else found.push({ path: issue.path, message: issue.message });
  }
  const locator = new Locator(doc, lines);
  const shown = found.slice(0, MAX_PROBLEMS_SHOWN).map(({ path, message }) => {
    const { line, col } = locator.at(path);
    return { file, line, column: col, path: path.map(String).join('.'), message };
  });
  throw problemError(shown, found.length);
}

/** `{` and `}` end a plain scalar inside `[ ]` or `{ }`, so a `${NAME}` there must be quoted. */
function flowHint(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const line = text.slice(start, end < 0 ? text.length : end);
  return /[[{][^'"]*\$\{/.test(line) ? ' (inside [ ] or { }, quote a variable: "${NAME}")' : '';
}

function firstAliasOffset(text: string): number {
  const m = /(^|[\s[{,:-])\*[^\s,\]}]/m.exec(text);
  return m ? m.index + m[1]!.length : 0;
}

/** A pipeline is a page of YAML; anything this big is not one and is not read into memory. */
const MAX_PIPELINE_BYTES = 1024 * 1024;

/** Reads at most `maxBytes` (a device or pipe may never end, and stat sizes lie for them). */
function readCapped(file: string, maxBytes: number): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n <= maxBytes;) {
      got = readSync(fd, buf, n, buf.length - n, null);
      n += got;
    }
    if (n > maxBytes) throw new Error(`more than the ${maxBytes} bytes a pipeline file may have`);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function loadPipeline(file: string, vars: Record<string, string | undefined> = {}): PipelineConfig {
  let text: string;
  try {
    text = readCapped(file, MAX_PIPELINE_BYTES);
  } catch (err) {
    throw new FreshetError(ErrorCodes.pipelineInvalid, 'critical', `${file}: cannot read: ${(err as Error).message}`);
  }
  return parsePipeline(text, file, vars);
}
