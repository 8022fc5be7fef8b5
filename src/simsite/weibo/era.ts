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

export function eraFormat(era: Era): EraFormat {
  const modern = era === 'modern2022';
  return {
    era,
    date: modern ? (ms) => absoluteDate(ms) : relativeDate,
    count: modern ? modernCount : era === 'classic2019' ? classicCount : (n) => n,
    regionName: modern,
    wrap: era === 'legacy2017' ? (data) => ({ ok: 1, ...data }) : (data) => ({ ok: 1, data }),
  };
}
