import { Reader, Writer } from './packed-io';

/**
 * Values and records inside a packed subject state (packed-state.ts), shared by every version.
 *
 * One value: a header varint h, kind = h mod 4, len = h div 4. Kind 0: UTF-8 string of len bytes;
 * 1: a string of canonical decimal digits below 2^64, as a varint (ids, container ids); 2: a
 * number that is an exact multiple of 1e-6 (the scheduler rounds to that), as a zigzag varint of
 * its millionths; 3: anything else, as JSON of len bytes.
 */

const DECIMAL = /^(0|[1-9][0-9]{0,19})$/;
const U64 = 2n ** 64n;

export function packValue(w: Writer, v: unknown): void {
  if (typeof v === 'string') {
    if (DECIMAL.test(v) && BigInt(v) < U64) {
      w.uint(1);
      w.big(BigInt(v));
      return;
    }
    const b = Buffer.from(v, 'utf8');
    w.uint(b.length * 4);
    w.raw(b);
    return;
  }
  if (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0)) {
    const micro = Math.round(v * 1e6);
    if (Number.isSafeInteger(micro) && micro / 1e6 === v) {
      w.uint(2);
      w.zigzag(micro);
      return;
    }
  }
  const b = Buffer.from(JSON.stringify(v), 'utf8');
  w.uint(b.length * 4 + 3);
  w.raw(b);
}

export function unpackValue(r: Reader): unknown {
  const h = r.uint();
  const kind = h % 4;
  const len = (h - kind) / 4;
  if (kind === 0) return r.text(len);
  if (kind === 1) return r.big().toString();
  if (kind === 2) return r.zigzag() / 1e6;
  return JSON.parse(r.text(len)) as unknown;
}

/**
 * web_pages' packed validators (`<Last-Modified base36>|<ETag>`, src/fetchers/conditional-get.ts)
 * when the tag is lower-case hex groups joined by dashes, as nginx (`"5f3a9c2e-bd41"`: mtime and
 * size) and Apache (`"2c-5f3a9c2e"`) make them: header varint (groups·4 + weak·2 + has
 * Last-Modified), Last-Modified seconds, then each group as its digit count and its nibbles. Half
 * the bytes of the text, which keeps a revisited page's state within listpack's 64. The tag must go
 * back verbatim in If-None-Match, so anything this cannot rebuild exactly stays text.
 */
const HEX_ETAG = /^([0-9a-z]*)\|(W\/)?"([0-9a-f]+(?:-[0-9a-f]+)*)"$/;

function packHexValidators(w: Writer, v: string): boolean {
  const m = HEX_ETAG.exec(v);
  if (!m) return false;
  const lm = m[1]!;
  const secs = lm === '' ? undefined : Number.parseInt(lm, 36);
  if (secs !== undefined && !(Number.isSafeInteger(secs) && secs.toString(36) === lm)) return false;
  const groups = m[3]!.split('-');
  w.uint(groups.length * 4 + (m[2] ? 2 : 0) + (secs !== undefined ? 1 : 0));
  if (secs !== undefined) w.uint(secs);
  for (const g of groups) {
    w.uint(g.length);
    w.raw(Buffer.from(g.length % 2 ? `${g}0` : g, 'hex'));
  }
  return true;
}

function unpackHexValidators(r: Reader): string {
  const h = r.uint();
  const lm = h & 1 ? r.uint().toString(36) : '';
  const groups: string[] = [];
  for (let n = Math.floor(h / 4); n > 0; n--) {
    const digits = r.uint();
    groups.push(r.bytes(Math.ceil(digits / 2)).toString('hex').slice(0, digits));
  }
  return `${lm}|${h & 2 ? 'W/' : ''}"${groups.join('-')}"`;
}

/**
 * Record keys the adapters and the scheduler write on every subject, one byte each instead of
 * their length. Append only: an index, once stored in Redis, must keep its meaning. HEX_V is
 * the key `v` with its value packed as hex validators (above), not as a value.
 */
const KEY_DICT = ['containerid', 'ep', 'eh', 'dn', 'dc', 'ds', 'v', 'b', 'v'] as const;
const HEX_V = 8;
const KEY_INDEX = new Map<string, number>(KEY_DICT.slice(0, HEX_V).map((k, i) => [k, i]));

/** A record: count, then per entry its key (odd header: dictionary index; even: string) and value. */
export function packRecord(w: Writer, rec: Record<string, unknown>): void {
  const entries = Object.entries(rec).filter(([, v]) => v !== undefined);
  w.uint(entries.length);
  for (const [k, v] of entries) {
    if (k === 'v' && typeof v === 'string') {
      const hex = new Writer();
      if (packHexValidators(hex, v)) {
        w.uint(HEX_V * 2 + 1);
        w.raw(hex.buffer(0));
        continue;
      }
    }
    const i = KEY_INDEX.get(k);
    if (i !== undefined) w.uint(i * 2 + 1);
    else {
      const b = Buffer.from(k, 'utf8');
      w.uint(b.length * 2);
      w.raw(b);
    }
    packValue(w, v);
  }
}

export function unpackRecord(r: Reader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let n = r.uint(); n > 0; n--) {
    const h = r.uint();
    const i = h % 2 === 1 ? (h - 1) / 2 : -1;
    const k = i >= 0 ? KEY_DICT[i] : r.text(h / 2);
    if (k === undefined) throw new RangeError('packed state: unknown key index');
    out[k] = i === HEX_V ? unpackHexValidators(r) : unpackValue(r);
  }
  return out;
}
