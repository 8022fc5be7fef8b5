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
