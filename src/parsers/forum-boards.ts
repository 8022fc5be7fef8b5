import { parseRuleSets, type RuleSet, type RuleSetInput } from '../extractors/rules/schema';

/**
 * Thread lists of Discuz! X and phpBB 3 boards, for web_pages `thread_lists`: each row's thread
 * (`url`), its reply count, the page links it shows, and the list's own pagination. Name them in
 * `thread_lists` and put them before the thread rule sets (`forumRuleSets()`), whose patterns also
 * match board pages.
 */
const DISCUZ_BOARD: RuleSetInput = {
  name: 'discuz-board',
  match: { regex: ['/forum-\\d+-\\d+\\.html', '[?&]mod=forumdisplay\\b'] },
  list: {
    selector: 'tbody[id^="normalthread_"]',
    fields: {
      url: { selector: 'a.xst', type: 'attr', attr: 'href', url: true },
      replies: { selector: 'td.num a' },
      page_urls: { selector: 'span.tps a', type: 'attr', attr: 'href', url: true, all: true },
      page_numbers: { selector: 'span.tps a', all: true },
    },
  },
  pagination: { selector: '.pg a.nxt' },
};

const PHPBB_BOARD: RuleSetInput = {
  name: 'phpbb-board',
  match: { regex: ['/viewforum\\.php\\?'] },
  list: {
    selector: 'li.row',
    fields: {
      url: { selector: 'a.topictitle', type: 'attr', attr: 'href', url: true },
      replies: { selector: 'dd.posts', regex: '(\\d+)' },
      page_urls: { selector: '.pagination a', type: 'attr', attr: 'href', url: true, all: true },
      page_numbers: { selector: '.pagination a', all: true },
    },
  },
  pagination: { selector: '.action-bar .pagination a[rel="next"]' },
};

export function forumBoardRuleSets(): RuleSet[] {
  return parseRuleSets([DISCUZ_BOARD, PHPBB_BOARD]);
}
