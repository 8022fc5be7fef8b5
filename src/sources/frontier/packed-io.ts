/** Byte writer and reader of the packed frontier state (packed-state.ts): LEB128 varints, zigzag, raw bytes. */
export class Writer {
  private bytes: number[] = [];
  byte(b: number): void {
    this.bytes.push(b);
  }
  /** Unsigned LEB128 of a safe non-negative integer (arithmetic, not bit ops: values exceed 2^32). */
  uint(n: number): void {
    while (n >= 128) {
      this.bytes.push((n % 128) + 128);
      n = Math.floor(n / 128);
    }
    this.bytes.push(n);
  }
  big(n: bigint): void {
    while (n >= 128n) {
      this.bytes.push(Number(n % 128n) + 128);
      n /= 128n;
    }
    this.bytes.push(Number(n));
  }
  zigzag(n: number): void {
    this.uint(n >= 0 ? n * 2 : -n * 2 - 1);
  }
  raw(b: Buffer): void {
    for (const x of b) this.bytes.push(x);
  }
  /** The bytes behind `prefix` zero bytes, in one allocation (packed on every ack and offer). */
  buffer(prefix: number): Buffer {
    const out = Buffer.alloc(prefix + this.bytes.length);
    out.set(this.bytes, prefix);
    return out;
  }
}

export class Reader {
  pos: number;
  constructor(private readonly b: Buffer, start: number) {
    this.pos = start;
  }
  byte(): number {
    if (this.pos >= this.b.length) throw new RangeError('packed state truncated');
    return this.b[this.pos++]!;
  }
  uint(): number {
    let n = 0;
    let mul = 1;
    for (;;) {
      const x = this.byte();
      n += (x & 127) * mul;
      if (x < 128) return n;
      mul *= 128;
    }
  }
  big(): bigint {
    let n = 0n;
    let mul = 1n;
    for (;;) {
      const x = this.byte();
      n += BigInt(x & 127) * mul;
      if (x < 128) return n;
      mul *= 128n;
    }
  }
  zigzag(): number {
    const u = this.uint();
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }
  text(len: number): string {
    if (this.pos + len > this.b.length) throw new RangeError('packed state truncated');
    const s = this.b.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    return s;
  }
  bytes(len: number): Buffer {
    if (this.pos + len > this.b.length) throw new RangeError('packed state truncated');
    this.pos += len;
    return this.b.subarray(this.pos - len, this.pos);
  }
  rest(): string {
    return this.text(this.b.length - this.pos);
  }
}
