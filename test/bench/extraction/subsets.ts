import type { DatasetPage } from '../../../src/eval/dataset';

/** The groups every score is reported for (sources as the dataset README names them). */
export const SUBSETS: Array<{ name: string; test: (p: DatasetPage) => boolean }> = [
  { name: 'all', test: () => true },
  { name: 'scrapinghub', test: (p) => p.source === 'scrapinghub' },
  { name: 'wcxb', test: (p) => p.source === 'wcxb-dev' },
  { name: 'wcxb-article', test: (p) => p.source === 'wcxb-dev' && p.page_type === 'article' },
  { name: 'wcxb-forum', test: (p) => p.source === 'wcxb-dev' && p.page_type === 'forum' },
  { name: 'daniel-zh', test: (p) => p.source === 'daniel-v2.1' },
  { name: 'cwced-zh', test: (p) => p.source === 'chinese-web-content-extraction-dataset' },
  { name: 'zh', test: (p) => p.lang === 'zh' },
];

/** The metric each subset is judged by (the one its published benchmark uses, CJK-aware on Chinese). */
export const PRIMARY_METRIC: Record<string, 'SH' | 'SH_CJK' | 'BOW'> = {
  all: 'SH_CJK', scrapinghub: 'SH', wcxb: 'BOW', 'wcxb-article': 'BOW', 'wcxb-forum': 'BOW',
  'daniel-zh': 'SH_CJK', 'cwced-zh': 'SH_CJK', zh: 'SH_CJK',
};
