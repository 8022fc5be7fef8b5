import type { DatasetPage } from '../../../src/eval/dataset';
import type { PageScore } from '../../../src/eval/score';
import { shPrecision, shRecall } from '../../../src/eval/shingles';

/** WCXB's page types (its metadata.json `page_type.primary`). */
export const WCXB_TYPES = ['article', 'service', 'forum', 'product', 'collection', 'listing', 'documentation'] as const;

/** The groups every score is reported for (sources and WCXB page types as the dataset README names them). */
export const SUBSETS: Array<{ name: string; test: (p: DatasetPage) => boolean }> = [
  { name: 'all', test: () => true },
  { name: 'scrapinghub', test: (p) => p.source === 'scrapinghub' },
  { name: 'wcxb', test: (p) => p.source === 'wcxb-dev' },
  ...WCXB_TYPES.map((t) => ({ name: `wcxb-${t}`, test: (p: DatasetPage) => p.source === 'wcxb-dev' && p.page_type === t })),
  { name: 'daniel-zh', test: (p) => p.source === 'daniel-v2.1' },
  { name: 'cwced-zh', test: (p) => p.source === 'chinese-web-content-extraction-dataset' },
  { name: 'zh', test: (p) => p.lang === 'zh' },
];

/** The metric each subset is judged by (the one its published benchmark uses, CJK-aware on Chinese). */
export const PRIMARY_METRIC: Record<string, 'SH' | 'SH_CJK' | 'BOW'> = {
  all: 'SH_CJK', scrapinghub: 'SH', wcxb: 'BOW', ...Object.fromEntries(WCXB_TYPES.map((t) => [`wcxb-${t}`, 'BOW' as const])),
  'daniel-zh': 'SH_CJK', 'cwced-zh': 'SH_CJK', zh: 'SH_CJK',
};

const f1 = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

/**
 * One page's F1 in the metric of its source (BOW on WCXB, SH on Scrapinghub, SH_CJK on Chinese
 * pages): what the catastrophic-miss count compares.
 */
export function pagePrimaryF1(p: DatasetPage, s: PageScore): number {
  if (p.source === 'wcxb-dev') return s.bow.f1;
  const t = p.lang === 'zh' ? s.shCjk : s.sh;
  return f1(shPrecision(t), shRecall(t));
}
