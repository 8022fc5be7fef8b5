/**
 * Subject names as the frontier stores them. Redis keeps a bucket hash compact (listpack) only
 * while every field is at most 64 bytes (hash-max-listpack-value), and a web page's name
 * (`web:page:https://www.<host>/<path>`) is often longer: one such name turns its whole bucket
 * into a hashtable, about twice the memory. So web names are stored shorter, losslessly:
 *
 * - a first byte 0x01–0x10 stands for `web:<kind>:<scheme>://[www.]` (PREFIXES);
 * - in the rest, bytes 0x12–0x1F stand for common URL pieces (TOKENS), 0x11 + varint for a run of
 *   4–15 digits without a leading zero, 0x00 + byte for a literal byte below 0x20;
 * - every other name (`weibo:user:…`) is stored as it is; one starting with a byte below 0x20 gets
 *   a 0x00 in front.
 *
 * Append only: a code, once stored in Redis, keeps its meaning. Readers and writers outside the
 * frontier only ever see full names (`RedisFrontier` encodes and decodes at its edge).
 */

const KINDS = ['page', 'feed', 'sitemap', 'robots'] as const;
const PREFIXES: readonly string[] = KINDS.flatMap((k) => [`web:${k}:https://www.`, `web:${k}:https://`, `web:${k}:http://www.`, `web:${k}:http://`]);
const DIGITS = 0x11;
const ESCAPE = 0x00;
const TOKENS: readonly string[] = ['.com/', '.html', '.htm', '.org/', '.net/', '.php', '/news/', '/index', '/article', '/blog/', '/tag/', '/category/', '.co.uk/', '?id='];
const FIRST_TOKEN = 0x12;
const TOKEN_BYTES = TOKENS.map((t) => Buffer.from(t, 'latin1'));

const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;

/** A via's tail as states of packed layout 1 stored it (packed-state-v1.ts reads them; nothing writes them now). */
export function decodeUrlText(coded: Buffer): string {
  return decodeBody(coded, 0);
}

function encodeBody(body: Buffer, out: number[]): void {
  for (let i = 0; i < body.length;) {
    const b = body[i]!;
    if (b < 0x20) {
      out.push(ESCAPE, b);
      i++;
      continue;
    }
    if (b >= 0x31 && b <= 0x39) {
      let j = i;
      while (j < body.length && j - i < 15 && isDigit(body[j]!)) j++;
      if (j - i >= 4) {
        out.push(DIGITS);
        let n = Number(body.toString('latin1', i, j));
        while (n >= 128) {
          out.push((n % 128) + 128);
          n = Math.floor(n / 128);
        }
        out.push(n);
        i = j;
        continue;
      }
    }
    const t = TOKEN_BYTES.findIndex((tok) => tok[0] === b && body.length - i >= tok.length && body.compare(tok, 0, tok.length, i, i + tok.length) === 0);
    if (t >= 0) {
      out.push(FIRST_TOKEN + t);
      i += TOKEN_BYTES[t]!.length;
      continue;
    }
    out.push(b);
    i++;
  }
}

/** The stored form of a subject name: a Buffer when it is shorter coded, else the name itself. */
export function encodeSubjectName(name: string): string | Buffer {
  const p = PREFIXES.findIndex((pre) => name.startsWith(pre));
  if (p < 0) return name.length > 0 && name.charCodeAt(0) < 0x20 ? Buffer.concat([Buffer.of(ESCAPE), Buffer.from(name, 'utf8')]) : name;
  const out: number[] = [p + 1];
  encodeBody(Buffer.from(name.slice(PREFIXES[p]!.length), 'utf8'), out);
  return Buffer.from(out);
}

/** The full name of a stored one (either form; names stored before this codec read as themselves). */
export function decodeSubjectName(stored: Buffer): string {
  const first = stored[0];
  if (first === undefined || first >= 0x20) return stored.toString('utf8');
  if (first === ESCAPE) return stored.toString('utf8', 1);
  const prefix = PREFIXES[first - 1];
  if (prefix === undefined) throw new RangeError(`stored subject name: unknown prefix code ${first}`);
  return prefix + decodeBody(stored, 1);
}

function decodeBody(stored: Buffer, from: number): string {
  const out: number[] = [];
  for (let i = from; i < stored.length;) {
    const b = stored[i++]!;
    if (b === ESCAPE) {
      if (i >= stored.length) throw new RangeError('stored subject name truncated');
      out.push(stored[i++]!);
    } else if (b === DIGITS) {
      let n = 0;
      let mul = 1;
      for (;;) {
        if (i >= stored.length) throw new RangeError('stored subject name truncated');
        const x = stored[i++]!;
        n += (x & 127) * mul;
        if (x < 128) break;
        mul *= 128;
      }
      for (const c of String(n)) out.push(c.charCodeAt(0));
    } else if (b >= FIRST_TOKEN && b < 0x20) {
      for (const c of TOKEN_BYTES[b - FIRST_TOKEN]!) out.push(c);
    } else out.push(b);
  }
  return Buffer.from(out).toString('utf8');
}

/** Stored byte length of a name (for measurements). */
export function storedNameBytes(name: string): number {
  const e = encodeSubjectName(name);
  return typeof e === 'string' ? Buffer.byteLength(e) : e.length;
}
