/**
 * Lines that are page furniture whatever element holds them: datelines, image credits,
 * "Advertisement", share prompts, newsletter boxes, editor and source lines of Chinese news
 * sites. Only short lines are judged, so a paragraph that merely mentions these words stays.
 */
const SHORT_CHARS = 120;

const EXACT_RE = new RegExp(`^[•·|]?\\s*(?:${[
  'advertisement', 'advertising', 'sponsored( content)?', 'anzeige', 'iklan', 'publicidad', 'werbung',
  'related( articles| stories| posts| news| content| links)?', 'you may also like', 'more from .{1,40}', 'trending( news| now| stories)?',
  'our latest stories', 'most (popular|read)', 'read more', 'recommended( for you)?', 'tags?', 'share( this( article| story)?)?',
  'sharing is caring', 'newsletter', 'sign up', 'subscribe', 'follow us', 'comments?', 'leave a (comment|reply)', 'loading',
  'skip to (main )?content', 'back to top', 'print', 'email', 'updated', 'published', 'sorry', 'watch', 'listen',
  'posted', 'edited', '\\(edited\\)', 'author', 'quote', 'reply', 'report', 'permalink', 'user name', 'password', 'remember me',
  'registered user', 'junior member', 'senior member', 'new member', 'member', 'moderator', 'administrator', 'posting rules',
  'forum jump', 'thread tools', 'display modes', 'quick reply', 'go to top', 'top', 'like', 'likes', 'thanks',
  'original poster', 'thread starter', 'op', '\\d+ (?:seconds?|minutes?|hours?|days?|weeks?|months?|years?) ago',
  '\\d+\\s*min(?:ute)?s?\\.? read', 'in this article', 'about the author',
  '\\[\\s*\\d+\\s*\\] thanks?', '\\{\\{.*\\}\\}',
  '我要评论', '发表评论', '新聞討論', '發表文章', '最新', '调查', '延伸阅读',
  // Related-link (相关新闻, 相關新聞, 相关阅读 ...), recommendation, comment and page-tool headers of Chinese sites (simplified and traditional).
  '相[关關](?:资讯|資訊|报道|報導|連結|链接|专题|專題|推荐|推薦|文章|阅读|閱讀|新闻|新聞)', '延伸閱讀', '(?:推荐|推薦)(?:阅读|閱讀)',
  '(?:热点|熱點|热门|熱門|精彩)(?:推荐|推薦|文章|新闻|新聞|图片|圖片)', '猜你喜欢', '更多(?:精彩|新闻|新聞|内容|內容)',
  '(?:网友|網友)(?:评论|評論|留言)', '我来说两句', '查看(?:评论|評論)', '(?:打印|列印)本[页頁文]', '关闭(?:窗口|本页)', '收藏本[文页]',
  '返回(?:首页|頂部|顶部|列表)', '回到(?:頂端|顶部)', '上一[页頁篇]', '下一[页頁篇]', '版[权權](?:声明|聲明)', '免[责責](?:声明|聲明)',
  '字[体體]大小',
  // A related-links box's header, a ticker's label, a share button named by its network.
  'don[\'’]?t miss', 'breaking( news)?', 'facebook|twitter|pinterest|linkedin|whatsapp|reddit|tumblr|flipboard|telegram',
].join('|')})\\W*(?:[(（\\[]\\s*\\d+\\s*[)）\\]]\\W*)?$`, 'i');

const PREFIX_RE = new RegExp(`^(?:${[
  'image \\d+ of', 'photo:', 'photograph:', 'picture:', 'credit:', 'source:', 'last (updated|modified)', 'by [\\p{Lu}][\\p{L}.\'’-]+(?: [\\p{Lu}][\\p{L}.\'’-]+){0,3}\\s*$', '\\| updated',
  'get (our|the) .{0,60}newsletter', 'sign up (for|to)', 'thanks for (signing|subscribing)', 'please check the opt-in',
  'i agree that', 'there was an error', 'click to expand', 'advertisement\\b', 'reply with quote', 'quote\\s*$',
  'report (post|this)', 'last edited', 'joined:?\\s', 'likes? received', 'reaction score', 'join date:', 'posts: ',
  'location: ', 'you may( not)? (post|edit)', '\\[img\\] code is', 'html code is', 'bb code is', 'smilies are',
  'all times are (gmt|utc)', 'the time now is', 'sent from my ', '.{1,80} likes? this\\.?$', 'keep an eye on your inbox', 'let our news meet', 'tempo de leitura',
  '免责声明', '声明[:：]', '•?\\s*凡注明', '\\[责任编辑', '责任编辑', '責任編輯', '网络编辑', '编辑[:：]', '編輯[:：]', '【编辑',
  '\\(编辑', '（编辑', '分享到', '转帖到', '字級設定', '字号[:：]', '網友也對', '這篇新聞讓您覺得', '想將你對這篇文章',
  '(?:电话|電話|邮箱|郵箱|传真|傳真)[:：]', '摄影[╱/:：]', '攝影[╱/:：]', 'https?://\\S+\\s+\\d{4}', '[(（]?文[/／\\\\]',
  '(?:记者|記者)[:：]?\\s*\\S{2,12}\\s*[/／]\\s*\\S{2,6}(?:报道|報導)$', '点击图片查看', '點擊圖片',
  '上一[篇页頁][:：]', '下一[篇页頁][:：]', '(?:关键字|关键词|關鍵字|關鍵詞|标签|標籤)[:：]', '(?:新闻|新聞|报料|報料)(?:热线|熱線)',
  '发表于', '發表於', '要了解更多', '暂无(?:相关|关联)', '(?:您的|当前|當前)位置[:：]', '本文(?:来源|來源|来自|來自)[:：]',
].join('|')})`, 'iu');

const ANYWHERE_RE = new RegExp([
  'getty images', 'follow (?:us|him|her|me) (?:on (?:twitter|facebook|instagram)|@)', '\\(image: [^)]*\\)\\s*$', '/ (?:ap|afp|reuters|getty)\\b', 'newsletter privacy policy', 'all rights reserved',
  '来源[:：]', '來源[:：]', '字号', '【大 中 小】', '打印', '评论\\d*条', '評論', '阅读\\s*$', '已有\\d+人阅读', '粉絲團', '粉丝团',
  '人参与', '复制链接', '稿源', '出处[:：]', '[(（][^)）]{0,20}摄[)）]\\s*$', '[(（]?资料图[)）]?\\s*$', '[(（]?資料照片[)）]?\\s*$',
  '圖片╱', '图片/',
  'facebook\\s*(?:專頁|专页|粉絲頁|粉丝页)', '(?:发送|發送)[A-Za-z0-9]{1,10}到\\d{5,}', '(?:热线|熱線|爆料|报料|報料)\\D{0,12}\\d{6,}',
].join('|'), 'iu');

const MONTHS = 'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun|maret|oktober';
const DATE_WORDS_RE = new RegExp(`\\b(?:${MONTHS}|am|pm|a\\.m|p\\.m|est|edt|cst|cdt|pst|pdt|gmt|utc|ist|et|updated|published|posted|on|at|today|yesterday|min|read)\\b|[\\d\\s.,:;/|•·()\\-–—年月日时分秒号]`, 'giu');
const MONTH_WORD_RE = new RegExp(`\\b(?:${MONTHS})\\b`, 'i');

/** A line that is nothing but a date/time stamp (with "Updated", "Published" and the like). */
export function isDateline(text: string): boolean {
  if (text.length > 70 || !/\d/.test(text)) return false;
  // A bare number or percentage is a table cell, not a date.
  const dateish = /\d{1,2}:\d{2}|(?:19|20)\d{2}|年|月/.test(text) || MONTH_WORD_RE.test(text);
  if (!dateish) return false;
  return text.replace(DATE_WORDS_RE, '').length <= 3;
}

/**
 * Notices that are furniture only on a short line: reprint and copyright notices, follow-us
 * prompts, tip-off calls, view and comment counters (a sentence of an article may mention them).
 */
const NOTICE_CHARS = 60;
const NOTICE_RE = new RegExp([
  '未[经經](?:本[站网網报報社]|作者)?(?:授权|授權|许可|許可|同意)[^。]{0,12}(?:转载|轉載|复制|複製|摘编|摘編|刊登|镜像|鏡像)', '不得(?:转载|轉載)', '禁止[^，。,]{0,4}(?:转载|轉載)', '(?:转载|轉載)(?:请|請)?(?:注明|註明)', '(?:转载|轉載)申[请請]', '版[权權]所有',
  'copyright\\s*(?:©|\\(c\\)|\\d{4})', '©\\s*\\d{4}', '#爆料#', '(?:关注|關注)(?:我们|我們|本[站报報网網])',
  '(?:扫描|掃描)(?:二维码|二維碼)', '扫一扫', '掃一掃', '微信公众号', '微信公眾號', '官方微博',
  '(?:阅读|閱讀|浏览|瀏覽|点击|點擊|评论|評論)(?:次数|次數|数|數|量)?\\s*(?:[(（]\\s*\\d*\\s*[)）]|[:：]\\s*\\d+)', '[調调]整字[體体]',
  '^[(（【\\[]\\s*[\\p{Script=Han}\\s·•]{0,12}(?:编辑|編輯|撰稿|编译|編譯|整理|校对|校對|审校|審校|责编|責編|翻译|翻譯)[:：]?[\\p{Script=Han}\\s·•]{0,12}[)）】\\]]$',
  '^\\S{0,8}(?:编辑|編輯)[:：]\\s*\\S{1,8}$', '责任编辑', '責任編輯',
  // A source or writer named alone in brackets: "(金羊网)", "（袁源）".
  '^[(（【\\[]\\s*[\\p{Script=Han}·•]{2,8}\\s*[)）】\\]]$',
  // Where the piece was reprinted from: "——《北京之春》1996年6月号", "(摘自《学术季刊》2000年第2期)", "据《中国青年报》".
  '^[—－-]{1,2}\\s*《[^》]{1,20}》.{0,20}$', '^[(（]?\\s*(?:摘自|转自|轉自|选自|選自|转载自|轉載自)', '^据《[^》]{1,20}》$',
  // A reprint condition in brackets: "(聲明：刊用《中國新聞周刊》稿件務經書面授權)"; a writer named alone: "作者：林晖".
  '^[(（]\\s*(?:声明|聲明)[:：]', '^作者[:：]\\s*[\\p{Script=Han}·•\\s]{2,8}$',
  '^(?:最后|最後)更新', '^(?:更新|发布|發布)(?:时间|時間|日期)[:：]', '^共找到\\s*[\\d,]+\\s*(?:个|個|条|條|篇)',
].join('|'), 'iu');

const BYLINE_DATE_RE = /^by [\p{Lu}][\p{L}.'’-]+(?: [\p{Lu}][\p{L}.'’-]+){0,3}\s*[-–—|·•,]\s*(.+)$/iu;

/** Openers of byline/dateline lines; only judged on lines too short to be a sentence about them. */
const SHORT_PREFIX_RE = /^(?:updated|published|posted|von|por|par|oleh)\b/i;
const SHORT_PREFIX_CHARS = 60;

/** Parts of a meta line run together: "2011-12-16 01:06:38 | 我来说两句 (0)", "記者： dave｜ 時間： Jan 17, 2012 | 留言 | Tweet". */
const META_SEP_RE = /\s*[|｜]\s*/;
/** A labelled writer or time ("記者： dave", "作者：林晖"), or a share or comment button. */
const META_PART_RE = /^(?:(?:记者|記者|作者|时间|時間|日期|author|by)\s*[:：].{1,30}|tweet|pin|留言|分享|评论|評論|收藏|打印|列印)$/iu;

/**
 * A short line whose every part between bars is a dateline, a byline, a counter or a button:
 * the page's meta row, though no single rule reads it whole.
 */
function isMetaRow(text: string): boolean {
  if (text.length > SHORT_CHARS || !META_SEP_RE.test(text)) return false;
  const parts = text.split(META_SEP_RE).filter((p) => p.length > 0);
  // One part at least is a date or a byline: bars between addresses or code are no meta row.
  return parts.length >= 2 && parts.some((p) => isDateline(p) || META_PART_RE.test(p)) && parts.every((p) => META_PART_RE.test(p) || isBoilerplateLine(p));
}

export function isBoilerplateLine(text: string): boolean {
  if (text.length <= SHORT_PREFIX_CHARS && SHORT_PREFIX_RE.test(text) && /\d/.test(text) && !/\p{Ll}{2}[.!?]$/u.test(text)) return true;
  if (text.length > SHORT_CHARS) return /^(?:免责声明|声明[:：]|•?\s*凡注明)/.test(text);
  if (!/\p{L}/u.test(text)) return true; // counters, bullets, separators
  // A short line carrying a web address is a site signature ("家园新闻,news.iask.ca", "http://www.x.com 2012-01-11").
  if (text.length < 40 && /(?:https?:\/\/|www\.)\S+/i.test(text)) return true;
  if (text.length <= NOTICE_CHARS && NOTICE_RE.test(text)) return true;
  // A byline run into its dateline: "By Justine Coleman - 11/18/19 11:04 PM EST".
  const byline = BYLINE_DATE_RE.exec(text);
  if (byline && isDateline(byline[1]!)) return true;
  return EXACT_RE.test(text) || PREFIX_RE.test(text) || ANYWHERE_RE.test(text) || isDateline(text)
    || /^\S+@\S+\.\w+$/.test(text) || /^(?:https?:\/\/)?(?:www\.)?twitter\.com\//i.test(text) || isMetaRow(text);
}
