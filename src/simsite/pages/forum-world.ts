import { chance, expSample, intBetween, logNormalSample, pick, streamRng } from '../random';
import { chooseSentiment } from '../text/compose';
import {
  EN_FILLERS, EN_FOODS, EN_PLACES, EN_TEMPLATES, EN_THINGS, EN_TIMES, ZH_FILLERS, ZH_FOODS, ZH_PLACES, ZH_TEMPLATES,
  ZH_THINGS, ZH_TIMES, type Lang, type Sentiment,
} from '../text/lexicon';
import type { World } from '../world';

export type ForumFlavour = 'discuz' | 'phpbb';
/** Where the page says its charset: the Content-Type header (and meta), only a meta tag, or nowhere. */
export type CharsetDeclaration = 'header' | 'meta' | 'none';

export interface ForumBoard {
  id: number;
  name: string;
  flavour: ForumFlavour;
  lang: Lang;
  encoding: 'utf-8' | 'gbk';
  charset: CharsetDeclaration;
  threadCount: number;
}

export interface ForumThread {
  boardId: number;
  tid: number;
  title: string;
  createdMs: number;
  /** Publication times of every post (floor 1 = the opening post), some of them in the future. */
  postTimes: number[];
}

export interface ForumPost {
  pid: number;
  tid: number;
  boardId: number;
  /** 1-based position in the thread. */
  floor: number;
  authorIndex: number;
  createdMs: number;
  sentiment: Sentiment;
  /** The post's own text, paragraphs separated by \n (quotes of other floors are not part of it). */
  text: string;
  paragraphs: string[];
  /** Floor quoted at the top of the post, if any. */
  quotesFloor: number | null;
}

/** Boards cover every flavour × encoding × charset-declaration combination the extractor must handle. */
const BOARD_SPECS: readonly Omit<ForumBoard, 'id' | 'threadCount'>[] = [
  { name: '数码讨论', flavour: 'discuz', lang: 'zh', encoding: 'utf-8', charset: 'header' },
  { name: '美食天地', flavour: 'discuz', lang: 'zh', encoding: 'gbk', charset: 'meta' },
  { name: '城市生活', flavour: 'discuz', lang: 'zh', encoding: 'gbk', charset: 'none' },
  { name: 'General Discussion', flavour: 'phpbb', lang: 'en', encoding: 'utf-8', charset: 'header' },
  { name: 'Travel', flavour: 'phpbb', lang: 'en', encoding: 'utf-8', charset: 'meta' },
  { name: '旅行交流', flavour: 'phpbb', lang: 'zh', encoding: 'utf-8', charset: 'none' },
];

const DAY_MS = 86_400_000;

function sentenceFor(rng: ReturnType<typeof streamRng>, lang: Lang, sentiment: Sentiment): string {
  const zh = lang === 'zh';
  const t = pick(rng, (zh ? ZH_TEMPLATES : EN_TEMPLATES)[sentiment]);
  return t.replace(/\{(topic|thing|place|time|food|name)\}/g, (_m, slot: string) => {
    if (slot === 'thing') return pick(rng, zh ? ZH_THINGS : EN_THINGS);
    if (slot === 'place') return pick(rng, zh ? ZH_PLACES : EN_PLACES);
    if (slot === 'time') return pick(rng, zh ? ZH_TIMES : EN_TIMES);
    if (slot === 'food') return pick(rng, zh ? ZH_FOODS : EN_FOODS);
    return zh ? '楼主' : 'the OP';
  });
}

/** Forums of the world: boards, threads and posts, all lazily derived from the world seed. */
export class ForumWorld {
  readonly boards: ForumBoard[];
  private readonly threads = new Map<number, ForumThread>();

  constructor(private readonly world: World, threadsPerBoard: number) {
    this.boards = BOARD_SPECS.map((s, i) => ({ ...s, id: i + 1, threadCount: threadsPerBoard }));
  }

  board(id: number): ForumBoard | undefined {
    return this.boards[id - 1];
  }

  /** Thread ids are board × 10000 + n, so a tid alone finds its board. */
  thread(tid: number): ForumThread | undefined {
    const boardId = Math.floor(tid / 10_000);
    const n = tid % 10_000;
    const board = this.board(boardId);
    if (!board || n < 1 || n > board.threadCount) return undefined;
    let t = this.threads.get(tid);
    if (!t) {
      const rng = streamRng(this.world.seed, 0xf0f0, tid);
      const span = this.world.startMs - this.world.historyStartMs;
      const createdMs = Math.floor((this.world.historyStartMs + rng.next() * span * 1.1) / 1000) * 1000;
      const replies = Math.min(400, Math.floor(logNormalSample(rng, 12, 1.1)));
      const meanGapMs = (0.5 + rng.next() * 12) * 3_600_000;
      const postTimes = [createdMs];
      for (let i = 0; i < replies; i++) {
        postTimes.push(Math.floor((postTimes[postTimes.length - 1]! + 1000 + expSample(rng, 1 / meanGapMs)) / 1000) * 1000);
      }
      const title = sentenceFor(rng, board.lang, chooseSentiment(rng, 0.4, 0.3));
      t = { boardId, tid, title, createdMs, postTimes };
      this.threads.set(tid, t);
    }
    return t;
  }

  threadIds(boardId: number): number[] {
    const b = this.board(boardId);
    if (!b) return [];
    return Array.from({ length: b.threadCount }, (_, i) => boardId * 10_000 + i + 1);
  }

  visiblePostCount(t: ForumThread, nowMs: number): number {
    let n = 0;
    while (n < t.postTimes.length && t.postTimes[n]! <= nowMs) n++;
    return n;
  }

  post(t: ForumThread, floor: number): ForumPost {
    const board = this.board(t.boardId)!;
    const rng = streamRng(this.world.seed, 0xf057, t.tid, floor);
    const sentiment = chooseSentiment(rng, 0.4, 0.3);
    const paragraphs = [sentenceFor(rng, board.lang, sentiment)];
    const fillers = board.lang === 'zh' ? ZH_FILLERS : EN_FILLERS;
    if (chance(rng, 0.4)) paragraphs.push(pick(rng, fillers));
    if (chance(rng, 0.3)) paragraphs.push(sentenceFor(rng, board.lang, sentiment));
    const authorIndex = floor === 1 || !chance(rng, 0.1)
      ? Math.floor(rng.next() * this.world.users.length)
      : Math.floor(streamRng(this.world.seed, 0xf057, t.tid, 1).next() * this.world.users.length);
    return {
      pid: t.tid * 1000 + floor,
      tid: t.tid,
      boardId: t.boardId,
      floor,
      authorIndex,
      createdMs: t.postTimes[floor - 1]!,
      sentiment,
      text: paragraphs.join('\n'),
      paragraphs,
      quotesFloor: floor > 2 && chance(rng, 0.2) ? intBetween(rng, 1, floor - 1) : null,
    };
  }

  /** Threads of a board ordered by last visible activity, newest first (what board index pages show). */
  activeThreads(boardId: number, nowMs: number): ForumThread[] {
    const out: ForumThread[] = [];
    for (const tid of this.threadIds(boardId)) {
      const t = this.thread(tid)!;
      if (t.createdMs <= nowMs) out.push(t);
    }
    const last = (t: ForumThread): number => t.postTimes[this.visiblePostCount(t, nowMs) - 1]!;
    return out.sort((a, b) => last(b) - last(a) || a.tid - b.tid);
  }
}

export const FORUM_PAGE_SIZE = 10;
export { DAY_MS as FORUM_DAY_MS };
