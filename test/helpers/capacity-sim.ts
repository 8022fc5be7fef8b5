import { AimdController, type AimdOptions } from '../../src/limits/aimd';
import { seededRng } from '../../src/core/rng';

/**
 * A site with an unannounced per-client capacity (token bucket of `perSec`, `burst`) that refuses
 * with 418 and no Retry-After, and a client that always has work: it sends whenever the controller
 * allows. Per-second counts of accepted and refused requests, and the controller at the end.
 */
export function simulateCapacity(perSec: number, burst: number, seconds: number, seed = 7, latencyMs = 50, opts: Partial<AimdOptions> = {}): { ok: number[]; refused: number[]; ctl: AimdController } {
  const r = seededRng(seed);
  const ctl = new AimdController(opts, () => r.next(), 0);
  let tokens = burst;
  let last = 0;
  const ok = new Array<number>(seconds).fill(0);
  const refused = new Array<number>(seconds).fill(0);
  let now = 0;
  for (;;) {
    const at = ctl.nextSendAtMs(now);
    if (at >= seconds * 1000) break;
    tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSec);
    last = at;
    const sec = Math.floor(at / 1000);
    if (tokens >= 1) {
      tokens -= 1;
      ok[sec]! += 1;
      ctl.onSuccess(at + latencyMs, latencyMs);
    } else {
      refused[sec]! += 1;
      ctl.onRefusal(at + latencyMs, at);
    }
    now = at;
  }
  return { ok, refused, ctl };
}
