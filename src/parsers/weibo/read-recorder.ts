import type { ReadPage, TimelineRead } from '../../monitor/tombstones';
import { stubStatus } from './post-status';
import { isData, mblogsOf, parseEnvelope, type Envelope } from './shapes';

/**
 * Records what a visit's timeline requests showed, as the reads the tombstone logic needs
 * (monitor/tombstones.ts): the ids of every page parsed in full, its pinned posts, whether the
 * list ended, and where each read started. Fed every timeline answer (or failure) of a visit, in
 * order; knows nothing of the index. A failed, refused or unparsable page ends its read as
 * `interrupted` and adds no page.
 */
const TIMELINE = /[?&]containerid=(?:107603|230413)\d+/;
const CURSOR = /[?&](page|since_id)=([^&]*)/;

interface Open {
  read: TimelineRead;
  /** The cursor the next page of this read is asked with. */
  next: string | null;
  ended: boolean;
}

export class TimelineReadRecorder {
  private readonly done: TimelineRead[] = [];
  private open: Open | null = null;
  /** What the last timeline answer was taken for: a page of posts, the end of the list, or an interruption. */
  lastOutcome: 'page' | 'end' | 'interrupted' | null = null;

  /** Whether a URL is a timeline page (the only requests this records). */
  static isTimeline(url: string): boolean {
    return TIMELINE.test(url);
  }

  /** A timeline answer received at `atMs`. */
  page(url: string, text: string, atMs: number): void {
    if (!TimelineReadRecorder.isTimeline(url)) return;
    const read = this.readFor(url, atMs);
    let env: Envelope;
    try {
      env = parseEnvelope(text, url);
    } catch {
      this.lastOutcome = 'interrupted';
      this.interrupt(atMs);
      return;
    }
    const posts = isData(env) ? mblogsOf(env) : [];
    read.read.endedAtMs = atMs;
    if (posts.length === 0) {
      // `ok:0` past the last page, or an empty list: the end (a soft block never gets here, it throws).
      read.ended = true;
      this.lastOutcome = 'end';
      return;
    }
    this.lastOutcome = 'page';
    const p: ReadPage = {
      // A stub in place of a gone post is no sighting of it: its place stays covered, the post goes missing.
      ids: posts.filter((m) => stubStatus(m) === undefined).map((m) => String(m.id ?? m.mid ?? '')).filter((id) => /^\d{1,20}$/.test(id)),
      fetchedAtMs: atMs,
    };
    const pinned = posts.filter((m) => m.mblogtype === 2).map((m) => String(m.id ?? m.mid ?? ''));
    if (pinned.length > 0) p.pinnedIds = pinned;
    read.read.pages.push(p);
    const info = env.data?.cardlistInfo;
    const since = info?.since_id;
    if ((typeof since === 'number' && since > 0) || (typeof since === 'string' && /^\d+$/.test(since))) {
      read.next = `since_id=${since}`;
    } else if (!info) {
      // No cardlistInfo: the adapter asks for the next page number.
      read.next = `page=${read.read.pages.length + 1}`;
      read.read.cursor = 'page';
    } else if (typeof info.page === 'number' && info.page > 0) {
      read.next = `page=${info.page}`;
      read.read.cursor = 'page';
    } else {
      read.ended = true;
    }
  }

  /** A timeline request that failed (error, refusal) at `atMs`. */
  failed(url: string, atMs: number): void {
    if (!TimelineReadRecorder.isTimeline(url)) return;
    this.readFor(url, atMs);
    this.lastOutcome = 'interrupted';
    this.interrupt(atMs);
  }

  /** The reads of the visit, closed. */
  finish(): TimelineRead[] {
    this.close();
    const out = this.done.slice();
    this.done.length = 0;
    return out;
  }

  private readFor(url: string, atMs: number): Open {
    const m = CURSOR.exec(url);
    const cursor = m ? `${m[1]}=${m[2]}` : 'page=1';
    const o = this.open;
    // The same read goes on when this request asks for the cursor its last page gave (or the next page number).
    if (o && !o.ended && cursor === o.next) return o;
    this.close();
    const fromTop = cursor === 'page=1' || cursor === 'since_id=';
    const read: TimelineRead = {
      pages: [], stop: 'page_limit', endedAtMs: atMs,
      from: fromTop ? { top: true } : { sinceId: m![2]! },
      cursor: m?.[1] === 'page' && !fromTop ? 'page' : 'since_id',
    };
    this.open = { read, next: null, ended: false };
    return this.open;
  }

  private interrupt(atMs: number): void {
    if (!this.open) return;
    this.open.read.stop = 'interrupted';
    this.open.read.endedAtMs = atMs;
    this.close();
  }

  private close(): void {
    const o = this.open;
    if (!o) return;
    if (o.ended && o.read.stop !== 'interrupted') o.read.stop = 'end_of_list';
    this.done.push(o.read);
    this.open = null;
  }
}
