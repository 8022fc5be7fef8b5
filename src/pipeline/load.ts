import { closeSync, openSync, readSync } from 'node:fs';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
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

function problemError(problems: PipelineProblem[]): FreshetError {
  const text = problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n');
  return new FreshetError(ErrorCodes.pipelineInvalid, 'critical', text, { problems });
}

/** The deepest node of `path` that exists, so an unknown or missing key points at its parent. */
function locate(doc: Document, path: (string | number)[], lines: LineCounter): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    const range = node?.range ?? (n === 0 ? (doc.contents as { range?: [number, number, number] } | null)?.range : undefined);
    if (range) {
      // For a key that exists, point at the key itself rather than its value.
      const keyOffset = n > 0 ? keyRange(doc, path.slice(0, n)) : undefined;
      const { line, col } = lines.linePos(keyOffset ?? range[0]);
      return { line, col };
    }
  }
  return { line: 1, col: 1 };
}

function keyRange(doc: Document, path: (string | number)[]): number | undefined {
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  if (isMap(parent)) {
    const pair = parent.items.find((p) => (p.key as { value?: unknown } | null)?.value === last);
    return (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
  }
  if (isSeq(parent) && typeof last === 'number') return (parent.items[last] as { range?: [number, number, number] } | undefined)?.range?.[0];
  return undefined;
}

/** Parses and validates pipeline text; every problem names the file, line, column and key path. */
export function parsePipeline(text: string, file: string, vars: Record<string, string | undefined> = {}): PipelineConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw problemError(doc.errors.map((e) => {
      const { line, col } = lines.linePos(e.pos[0]);
      return { file, line, column: col, path: '', message: e.message.split('\n')[0]! + flowHint(text, e.pos[0]) };
    }));
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
  throw problemError(parsed.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    return keys.map((key) => {
      const path = key === undefined ? issue.path : [...issue.path, key];
      const { line, col } = locate(doc, path as (string | number)[], lines);
      const message = issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message;
      return { file, line, column: col, path: path.join('.'), message };
    });
  }).flat());
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
