import { parseRuleSets, type RuleSet, type RuleSetInput } from './schema';

/**
 * Discuz! X (the common Chinese forum engine): thread pages `thread-<tid>-<page>-1.html` or
 * `forum.php?mod=viewthread&tid=`, board pages `forum-<fid>-<page>.html` or `mod=forumdisplay`.
 * Times are China time; posts of the last week show "N 天前" with the absolute time in a title.
 */
const DISCUZ: RuleSetInput = {
  name: 'discuz',
  match: { regex: ['/thread-\\d+-\\d+-\\d+\\.html', '[?&]mod=viewthread\\b', '/forum-\\d+-\\d+\\.html', '[?&]mod=forumdisplay\\b'] },
  fields: {
    title: { selector: '#thread_subject' },
    board: { selector: '#pt .z a', all: true },
  },
  list: {
    selector: '#postlist > div[id^="post_"]',
    fields: {
      pid: { selector: 'table[id^="pid"]', type: 'attr', attr: 'id', regex: '^pid(\\d+)$' },
      floor: { selector: '[id^="postnum"] em' },
      author: [{ selector: '.pls .authi a.xw1' }, { selector: '.authi a[href*="uid="]' }],
      published_at: [
        { selector: 'em[id^="authorposton"] span[title]', type: 'attr', attr: 'title', date: true, utcOffset: '+08:00' },
        { selector: 'em[id^="authorposton"]', regex: '(\\d{4}-\\d{1,2}-\\d{1,2}\\s+\\d{1,2}:\\d{2}(?::\\d{2})?)', date: true, utcOffset: '+08:00' },
      ],
      text: { selector: 'td.t_f', exclude: ['.quote', '.pstatus', '.jammer', '.attach_nopermission', 'ignore_js_op', '.aimg_tip'] },
    },
    required: ['text'],
  },
  pagination: { selector: '.pg a.nxt' },
  links: { selector: 'a.xst, a[href*="thread-"], a[href*="mod=viewthread"]', regex: '/thread-\\d+-1-1\\.html|mod=viewthread' },
};

/** phpBB 3 (prosilver): `viewtopic.php?f=&t=&start=` thread pages, `viewforum.php` board pages. */
const PHPBB: RuleSetInput = {
  name: 'phpbb',
  match: { regex: ['/viewtopic\\.php\\?', '/viewforum\\.php\\?'] },
  fields: {
    title: [{ selector: 'h2.topic-title a' }, { selector: 'h2.topic-title' }],
    board: { selector: '#nav-breadcrumbs .crumb a', all: true },
  },
  list: {
    selector: 'div.post[id^="p"]',
    fields: {
      pid: { selector: ':scope', type: 'attr', attr: 'id', regex: '^p(\\d+)$' },
      author: [
        { selector: '.postprofile dt a.username, .postprofile dt a.username-coloured' },
        { selector: '.author strong a' },
      ],
      published_at: [
        { selector: '.author time[datetime]', type: 'attr', attr: 'datetime', date: true },
        { selector: '.author', regex: '»\\s*(.+)$', date: true, utcOffset: 'Z' },
      ],
      text: { selector: '.content', exclude: ['blockquote', '.codebox + br'] },
    },
    required: ['text'],
  },
  pagination: { selector: '.pagination li.next a, .pagination a[rel="next"]' },
  links: { selector: 'a.topictitle', regex: 'viewtopic\\.php' },
};

/** The rule sets freshet ships for Discuz-like and phpBB-like forums, validated. */
export function forumRuleSets(): RuleSet[] {
  return parseRuleSets([DISCUZ, PHPBB]);
}
