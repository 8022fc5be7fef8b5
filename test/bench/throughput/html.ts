/**
 * The HTML workload: simsite news article pages (~17 KB: nav, sidebars, recommended articles,
 * comments, style and script around the text), `/news/1.html` … `/news/N.html`, given to every
 * contender as its start list. Each contender parses every page and follows its links to other
 * articles through its own de-duplication, which finds them all known: the same pages for all.
 */
export const ARTICLE_LINK = /\/news\/\d+\.html$/;

export const articleUrls = (base: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${base}/news/${i + 1}.html`);
