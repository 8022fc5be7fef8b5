import { readFileSync } from 'node:fs';

/**
 * This process's peak RSS in MiB: VmHWM from /proc (the high-water mark of this address space).
 * Not getrusage's maxrss, which Linux carries over from the parent across fork+exec, so a child
 * of a large parent reports the parent's size.
 */
export function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
}

/** Median (NaN for no values). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
