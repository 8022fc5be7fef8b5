import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One page of `manifest.json` of an extraction-dev/-heldout folder. */
export interface ManifestPage {
  source: string;
  id: string;
  html: string;
  truth: string;
  truth_format: string;
  lang: string;
  page_type?: string;
  url?: string;
  domain?: string;
  html_encoding: string;
}

export interface DatasetPage extends ManifestPage {
  /** Raw (gunzipped) HTML bytes. */
  bytes: Uint8Array;
  truthText: string;
}

export function readManifest(dir: string): ManifestPage[] {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestPage[];
}

/** Reads one truth file in whichever of the four formats its source uses. */
export function readTruth(dir: string, page: ManifestPage, jsonCache = new Map<string, unknown>()): string {
  const [file = '', key] = page.truth.split('#');
  const path = join(dir, file);
  if (key !== undefined) {
    if (!jsonCache.has(path)) jsonCache.set(path, JSON.parse(readFileSync(path, 'utf8')));
    const all = jsonCache.get(path) as Record<string, { articleBody?: string }>;
    return all[key]?.articleBody ?? '';
  }
  const raw = readFileSync(path, 'utf8');
  if (file.endsWith('.json')) {
    const data = JSON.parse(raw) as { ground_truth?: { main_content?: string | null } };
    return data.ground_truth?.main_content ?? '';
  }
  if (page.truth_format.includes('<p>')) return raw.replace(/<\/?p>/g, '');
  return raw;
}

/** Publication date and author a truth file states (WCXB's `ground_truth.publish_date` / `author`; other sources have none). */
export interface TruthMeta {
  publishDate?: string;
  author?: string;
}

export function readTruthMeta(dir: string, page: ManifestPage): TruthMeta {
  const [file = '', key] = page.truth.split('#');
  if (key !== undefined || !file.endsWith('.json')) return {};
  const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { ground_truth?: { publish_date?: string | null; author?: string | null } };
  const g = data.ground_truth ?? {};
  return { ...(g.publish_date ? { publishDate: g.publish_date } : {}), ...(g.author ? { author: g.author } : {}) };
}

export function readHtmlBytes(dir: string, page: ManifestPage): Uint8Array {
  const bytes = readFileSync(join(dir, page.html));
  return page.html.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

export function loadDataset(dir: string): DatasetPage[] {
  const cache = new Map<string, unknown>();
  return readManifest(dir).map((p) => ({ ...p, bytes: readHtmlBytes(dir, p), truthText: readTruth(dir, p, cache) }));
}
