import { chance, expSample, intBetween, logNormalSample, pick, streamRng } from '../random';
import { EN_FILLERS, ZH_FILLERS } from '../text/lexicon';
import { type Article, type ArticleSite, sentence } from './articles';

const HOUR_MS = 3_600_000;

/**
 * What happens to news articles after publication, and what the news site adds around them. The
 * defaults leave `/news/` pages as they always were (feeds and sitemaps only add paths; validators
 * are off so that no benchmark pays for hashing pages it never revalidates).
 */
export interface NewsOptions {
  /** Share of articles edited after publication (each one to three times, hours apart). */
  editShare: number;
  /** Share of articles deleted some days after publication (then 404 or 410). */
  deleteShare: number;
  /** Share of articles moved to a dated URL (the old one answers 301). */
  moveShare: number;
  /** ETag and Last-Modified on pages, feeds and sitemaps; a matching conditional GET gets 304. */
  validators: boolean;
  /** robots.txt names the sitemaps (`Sitemap:` lines). */
  announceSitemaps: boolean;
  /** Links carry tracking parameters (utm_*, spm, from) and some go to the AMP variant or a dot-segment form. */
  trackingLinks: boolean;
  /** Links carry a session id, in the path (`;jsessionid=`) or the query (`?sid=`); none: off. */
  sessionIds: 'none' | 'path' | 'query';
  /** An endless calendar, faceted navigation and a path that repeats itself. */
  traps: boolean;
}

export const DEFAULT_NEWS_OPTIONS: NewsOptions = {
  editShare: 0, deleteShare: 0, moveShare: 0, validators: false, announceSitemaps: false, trackingLinks: false, sessionIds: 'none', traps: false,
};

/** One state of an article's text: version 0 is the text as published. */
export interface ArticleVersion {
  version: number;
  modifiedMs: number;
  title: string;
  paragraphs: string[];
}

export interface ArticleFate {
  /** Versions in time order, the published one first. */
  versions: ArticleVersion[];
  /** When the article disappears, and how it answers then. */
  deleted: { atMs: number; status: 404 | 410 } | null;
  /** When the article moves to `path` (the old URL answers 301 from then on). */
  moved: { atMs: number; path: string } | null;
}

/** What a request at one time sees of an article. */
export type ArticleState =
  | { kind: 'live'; path: string; version: ArticleVersion }
  | { kind: 'gone'; status: 404 | 410 }
  | { kind: 'moved'; path: string; version: ArticleVersion };

export const articlePath = (id: number): string => `/news/${id}.html`;

/** The dated URL a moved article lives at: `/news/2026/11/123.html` (month of publication, UTC). */
export function datedPath(id: number, publishedMs: number): string {
  const d = new Date(publishedMs);
  return `/news/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${id}.html`;
}

/** An edit: a corrected paragraph, an update appended, or a new headline with a reworded lead. */
function edit(prev: ArticleVersion, a: Article, k: number, atMs: number, seed: number): ArticleVersion {
  const rng = streamRng(seed, 0xed17, a.id, k);
  const paragraphs = [...prev.paragraphs];
  let title = prev.title;
  const kind = intBetween(rng, 0, 2);
  if (kind === 0) {
    const i = intBetween(rng, 0, paragraphs.length - 1);
    paragraphs[i] = `${sentence(rng, a.lang, a.sentiment)}${a.lang === 'zh' ? '。' : '.'}`;
  } else if (kind === 1) {
    const note = a.lang === 'zh' ? `更新：${sentence(rng, a.lang, a.sentiment)}。${pick(rng, ZH_FILLERS)}` : `Update: ${sentence(rng, a.lang, a.sentiment)}. ${pick(rng, EN_FILLERS)}`;
    paragraphs.push(note);
  } else {
    title = sentence(rng, a.lang, a.sentiment);
    paragraphs[0] = `${sentence(rng, a.lang, a.sentiment)}${a.lang === 'zh' ? '。' : '.'}`;
  }
  return { version: k, modifiedMs: atMs, title, paragraphs };
}

/**
 * The fate of every article, derived from the world seed and the article id alone (so it is the
 * same whatever was asked before). Edits, deletions and moves happen at their times as the
 * simulated clock passes them.
 */
export class NewsLifecycle {
  private readonly fates = new Map<number, ArticleFate>();

  constructor(private readonly site: ArticleSite, private readonly seed: number, readonly options: NewsOptions) {}

  fate(a: Article): ArticleFate {
    let f = this.fates.get(a.id);
    if (f) return f;
    const o = this.options;
    const rng = streamRng(this.seed, 0xfa7e, a.id);
    const versions: ArticleVersion[] = [{ version: 0, modifiedMs: a.publishedMs, title: a.title, paragraphs: a.paragraphs }];
    // Draws happen whatever the options, so one share does not reshuffle the fates the others give.
    const edited = chance(rng, o.editShare);
    const edits = intBetween(rng, 1, 3);
    let t = a.publishedMs;
    for (let k = 1; k <= edits; k++) {
      t = Math.floor((t + 600_000 + expSample(rng, 1 / (8 * HOUR_MS))) / 1000) * 1000;
      if (edited) versions.push(edit(versions[k - 1]!, a, k, t, this.seed));
    }
    const fateDraw = rng.next();
    const deleteAt = Math.floor((a.publishedMs + logNormalSample(rng, 36 * HOUR_MS, 0.8)) / 1000) * 1000;
    const status: 404 | 410 = chance(rng, 0.5) ? 404 : 410;
    const moveAt = Math.floor((a.publishedMs + logNormalSample(rng, 20 * HOUR_MS, 0.8)) / 1000) * 1000;
    f = {
      versions,
      deleted: fateDraw < o.deleteShare ? { atMs: deleteAt, status } : null,
      moved: fateDraw >= o.deleteShare && fateDraw < o.deleteShare + o.moveShare ? { atMs: moveAt, path: datedPath(a.id, a.publishedMs) } : null,
    };
    this.fates.set(a.id, f);
    return f;
  }

  /** The version visible at `nowMs` (the last one made by then). */
  versionAt(a: Article, nowMs: number): ArticleVersion {
    const vs = this.fate(a).versions;
    let v = vs[0]!;
    for (const x of vs) if (x.modifiedMs <= nowMs) v = x;
    return v;
  }

  state(a: Article, nowMs: number): ArticleState {
    const f = this.fate(a);
    if (f.deleted && f.deleted.atMs <= nowMs) return { kind: 'gone', status: f.deleted.status };
    const version = this.versionAt(a, nowMs);
    if (f.moved && f.moved.atMs <= nowMs) return { kind: 'moved', path: f.moved.path, version };
    return { kind: 'live', path: articlePath(a.id), version };
  }

  /** The live article with this id at `nowMs` and where it lives, or undefined (unpublished or deleted). */
  live(id: number, nowMs: number): LiveArticle | undefined {
    const a = this.site.article(id, nowMs);
    if (!a) return undefined;
    const s = this.state(a, nowMs);
    return s.kind === 'gone' ? undefined : { a, path: s.path, version: s.version };
  }

  /** Live articles newest first, at most `limit` (what index pages and feeds list). */
  latest(nowMs: number, limit = Infinity, skip = 0): LiveArticle[] {
    const out: LiveArticle[] = [];
    let skipped = 0;
    for (let id = this.site.countAt(nowMs); id >= 1 && out.length < limit; id--) {
      const x = this.live(id, nowMs);
      if (!x) continue;
      if (skipped < skip) skipped += 1;
      else out.push(x);
    }
    return out;
  }

  /** The last time anything a listing shows changed: a publication, an edit, a move or a deletion. */
  lastEventMs(nowMs: number): number {
    const n = this.site.countAt(nowMs);
    let last = n > 0 ? this.site.article(n, nowMs)!.publishedMs : 0;
    const o = this.options;
    if (o.editShare === 0 && o.deleteShare === 0 && o.moveShare === 0) return last;
    for (let id = 1; id <= n; id++) {
      const f = this.fate(this.site.article(id, nowMs)!);
      for (const v of f.versions) if (v.modifiedMs <= nowMs && v.modifiedMs > last) last = v.modifiedMs;
      if (f.deleted && f.deleted.atMs <= nowMs && f.deleted.atMs > last) last = f.deleted.atMs;
      if (f.moved && f.moved.atMs <= nowMs && f.moved.atMs > last) last = f.moved.atMs;
    }
    return last;
  }

  /** The last change of the article itself (its text, its URL, its comments): what its Last-Modified says. */
  changedMs(a: Article, nowMs: number): number {
    let last = this.versionAt(a, nowMs).modifiedMs;
    const moved = this.fate(a).moved;
    if (moved && moved.atMs <= nowMs) last = Math.max(last, moved.atMs);
    for (const c of a.comments) if (c.createdMs <= nowMs) last = Math.max(last, c.createdMs);
    return last;
  }

  liveCount(nowMs: number): number {
    let n = 0;
    for (let id = this.site.countAt(nowMs); id >= 1; id--) if (this.live(id, nowMs)) n += 1;
    return n;
  }
}

export interface LiveArticle {
  a: Article;
  path: string;
  version: ArticleVersion;
}

/**
 * `--news` of `freshet simsite`: comma-separated parts, `monitor` for all of them at once:
 * `validators`, `sitemaps` (robots.txt names them), `edits[=share]`, `deletes[=share]`,
 * `moves[=share]`, `tracking`, `sessions=path|query`, `traps`. `none`: the plain site.
 */
export function parseNewsSpec(spec: string): Partial<NewsOptions> {
  const out: Partial<NewsOptions> = {};
  const share = (name: string, v: string | undefined, fallback: number): number => {
    const x = v === undefined ? fallback : Number(v);
    if (!(x >= 0 && x <= 1)) throw new RangeError(`--news ${name}: a share between 0 and 1, got "${v}"`);
    return x;
  };
  for (const part of spec.split(',').map((p) => p.trim()).filter((p) => p !== '' && p !== 'none')) {
    const [name, value] = part.split('=', 2) as [string, string | undefined];
    switch (name) {
      case 'monitor':
        Object.assign(out, { validators: true, announceSitemaps: true, editShare: 0.3, deleteShare: 0.05, moveShare: 0.05, trackingLinks: true, sessionIds: 'path', traps: true });
        break;
      case 'validators': out.validators = true; break;
      case 'sitemaps': out.announceSitemaps = true; break;
      case 'edits': out.editShare = share(name, value, 0.3); break;
      case 'deletes': out.deleteShare = share(name, value, 0.05); break;
      case 'moves': out.moveShare = share(name, value, 0.05); break;
      case 'tracking': out.trackingLinks = true; break;
      case 'traps': out.traps = true; break;
      case 'sessions':
        if (value !== 'path' && value !== 'query') throw new RangeError(`--news sessions: path or query, got "${value ?? ''}"`);
        out.sessionIds = value;
        break;
      default:
        throw new RangeError(`--news: unknown part "${name}" (monitor, validators, sitemaps, edits[=x], deletes[=x], moves[=x], tracking, sessions=path|query, traps)`);
    }
  }
  if ((out.deleteShare ?? 0) + (out.moveShare ?? 0) > 1) throw new RangeError('--news: deletes and moves share more than 1');
  return out;
}
