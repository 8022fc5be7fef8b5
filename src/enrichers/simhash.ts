import { map } from 'rxjs';
import { z } from 'zod';
import { defineStage } from '../core/stage';
import { hashString } from './sentiment/feature-hash';

export const simhashConfigSchema = z.strictObject({
  type: z.literal('simhash'),
  field: z.string().default('text'),
  target: z.string().default('simhash'),
  dup_field: z.string().default('dup_of'),
  /** Near-duplicate when at most this many of the 64 bits differ (≤ 3 is what the 4-band index guarantees to find). */
  max_distance_bits: z.number().int().min(0).max(3).default(3),
  /** Texts shorter than this (after markup removal) get a simhash but are never called duplicates. */
  min_chars: z.number().int().min(1).default(12),
  /** How many recent documents the in-memory index remembers (oldest forgotten first). */
  index_capacity: z.number().int().min(1).default(200_000),
});

// Links and mentions differ between copies of a spam wave; they are not the content.
const NOISE_RE = /https?:\/\/\S+|@[\p{L}\p{N}_-]+/gu;
const SKIP_RE = /[\s\p{P}\p{S}]/u;

/** 64-bit simhash over character 2-gram shingles, as [hi, lo] 32-bit halves. */
export function simhash64(text: string): { hi: number; lo: number; chars: number } {
  const cps = Array.from(text.replace(NOISE_RE, ' ').toLowerCase()).filter((c) => !SKIP_RE.test(c));
  const acc = new Int32Array(64);
  const shingle = (s: string): void => {
    const a = hashString(0x5101, s);
    const b = hashString(0x5102, s);
    for (let i = 0; i < 32; i++) {
      acc[i]! += (a >>> i) & 1 ? 1 : -1;
      acc[32 + i]! += (b >>> i) & 1 ? 1 : -1;
    }
  };
  if (cps.length === 1) shingle(cps[0]!);
  for (let i = 0; i + 1 < cps.length; i++) shingle(cps[i]! + cps[i + 1]!);
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 32; i++) {
    if (acc[i]! > 0) lo |= 1 << i;
    if (acc[32 + i]! > 0) hi |= 1 << i;
  }
  return { hi: hi >>> 0, lo: lo >>> 0, chars: cps.length };
}

export function simhashHex(h: { hi: number; lo: number }): string {
  return h.hi.toString(16).padStart(8, '0') + h.lo.toString(16).padStart(8, '0');
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

export function hammingDistance(a: { hi: number; lo: number }, b: { hi: number; lo: number }): number {
  return popcount((a.hi ^ b.hi) >>> 0) + popcount((a.lo ^ b.lo) >>> 0);
}

interface Entry { id: string; hi: number; lo: number; seq: number }

/**
 * Bounded near-duplicate index: four 16-bit bands, so two hashes within 3 bits share a band
 * (pigeonhole). A ring of the last `capacity` entries; evicted entries leave their band lists.
 */
export class SimhashIndex {
  private readonly bands = new Map<number, Entry[]>();
  private readonly ring: (Entry | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number, private readonly maxDistance = 3) {
    this.ring = new Array<Entry | undefined>(capacity);
  }

  private static keys(h: { hi: number; lo: number }): number[] {
    // The band number above the 16 bits keeps the four bands' keys apart in one map.
    return [h.lo & 0xffff, (h.lo >>> 16) + 0x10000, (h.hi & 0xffff) + 0x20000, (h.hi >>> 16) + 0x30000];
  }

  /** The id of the earliest remembered near-duplicate, if any. */
  find(h: { hi: number; lo: number }): string | undefined {
    let best: Entry | undefined;
    for (const k of SimhashIndex.keys(h)) {
      for (const e of this.bands.get(k) ?? []) {
        if (hammingDistance(e, h) <= this.maxDistance && (!best || e.seq < best.seq)) best = e;
      }
    }
    return best?.id;
  }

  add(id: string, h: { hi: number; lo: number }): void {
    const slot = this.next % this.capacity;
    const old = this.ring[slot];
    if (old) {
      for (const k of SimhashIndex.keys(old)) {
        const list = this.bands.get(k);
        if (!list) continue;
        const i = list.indexOf(old);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) this.bands.delete(k);
      }
    }
    const e: Entry = { id, hi: h.hi, lo: h.lo, seq: this.next };
    this.ring[slot] = e;
    this.next++;
    for (const k of SimhashIndex.keys(h)) {
      const list = this.bands.get(k);
      if (list) list.push(e);
      else this.bands.set(k, [e]);
    }
  }

  get size(): number {
    return Math.min(this.next, this.capacity);
  }
}

export const simhashStage = defineStage({
  type: 'simhash',
  kind: 'enricher',
  schema: simhashConfigSchema,
  build: (config) => {
    const index = new SimhashIndex(config.index_capacity, config.max_distance_bits);
    return map((env) => {
      const body = env.doc.body;
      const text = body[config.field];
      if (typeof text !== 'string' || text.length === 0) return env;
      const h = simhash64(text);
      body[config.target] = simhashHex(h);
      if (h.chars < config.min_chars) return env;
      const id = env.doc.id;
      const dup = index.find(h);
      if (dup !== undefined && dup !== id) body[config.dup_field] = dup;
      else if (dup === undefined) index.add(id, h);
      return env;
    });
  },
});
