import { absoluteDate, classicCount, modernCount, relativeDate } from '../format';

/**
 * legacy2017: no `data` wrapper, relative dates, int counts. classic2019: `data` wrapper, relative
 * dates, ints ("100万+" beyond a million). modern2022: absolute dates, "43.4万" strings, region_name.
 */
export type Era = 'legacy2017' | 'classic2019' | 'modern2022';

export const ERAS: readonly Era[] = ['legacy2017', 'classic2019', 'modern2022'];

export interface EraFormat {
  era: Era;
  date(ms: number, nowMs: number): string;
  count(n: number): number | string;
  regionName: boolean;
  wrap(data: Record<string, unknown>): Record<string, unknown>;
}

/** `countFloors`: counts of a million or more print as "100万+" in every era (off: only classic2019 does). */
export function eraFormat(era: Era, opts: { countFloors?: boolean } = {}): EraFormat {
  const modern = era === 'modern2022';
  const base = modern ? modernCount : era === 'classic2019' ? classicCount : (n: number) => n;
  return {
    era,
    date: modern ? (ms) => absoluteDate(ms) : relativeDate,
    count: opts.countFloors ? (n) => (n >= 1_000_000 ? '100万+' : base(n)) : base,
    regionName: modern,
    wrap: era === 'legacy2017' ? (data) => ({ ok: 1, ...data }) : (data) => ({ ok: 1, data }),
  };
}
