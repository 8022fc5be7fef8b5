import { decodeHtml } from '../core/charset';
import { toBlocks, type Block } from './blocks';
import { isAncestorOf, isElement, parseHtml, type DomElement, type DomParent, type DomRoot } from './dom';
import { authorLines, findByline, labelledDate } from './bylines';
import { isOnePiece, nameKey, siteNames } from './json-ld';
import { findAuthor, findTitle, jsonLd, metaMap } from './metadata';
import { pageElements } from './page-elements';
import { copyrightAuthor } from './copyright';
import { findLang } from './page-lang';
import { findModified, findPublished } from './published';
import { writesDayFirst } from './dates';
import { dataObjectAuthor } from './data-objects';
import { cleanAuthor } from './thread-starter';
import { chooseContent, DEFAULT_CONTENT, type ContentParams } from './content';
import { threadPosts } from './thread-content';
import { judgeFurniture } from './layout';
import { forumEvidence } from './page-kind';
import { withWholeTables } from './table-rows';
import { withSiblingPanels } from './sibling-panels';
import { withIntroSection } from './intro-section';
import { isTeaserList } from './forum-posts';
import { withItemList, withListIntro } from './item-list';
import { withCardModules } from './card-modules';
import { withSiblingPosts } from './sibling-posts';
import { findItemLines, itemValues } from './items';
import { DEFAULT_SCORING, FORUM_SCORING, lineValue, linkRatio, nodeValues, type ScoringParams } from './scoring';
import { isProse, lastResort, neverEmpty, paragraphContainer, preferSecond } from './second-opinion';
import { dropCardRepeats, dropCopiedRuns, dropRepeatedLines } from './repeats';
import { DEFAULT_SELECTION, FORUM_SELECTION, selectLines, type SelectionParams } from './selection';
import { cutOtherStories } from './other-stories';
import { teaserTitles } from './teaser-titles';
import { dropListTitles } from './list-titles';
import { keepFlowLists } from './flow-lists';
import { dropBreakdowns } from './breakdowns';
import { dropPlaceholders } from './placeholders';
import { keepItemLinkLines } from './item-links';
import { markCommentThreads } from './comment-threads';
import { cutPastedDumps } from './pasted-dumps';
import { dropPostFurniture } from './post-furniture';
import { dropRelativeStamps } from './relative-stamps';
import { shownVoteStates } from './vote-states';
import { captionAlts, dropAltCaptions } from './alt-captions';
import { pageEchoes } from './echoes';
import { dropAuthorEchoes } from './author-echoes';
import { dropCardControls } from './card-controls';
import { isFooterWinner, MIN_ABOVE_FOOTER_CHARS, valuesAbove } from './footer-winner';
import { isCjkText, withCjkHeadline } from './cjk-headline';
import { cutAboveHeadline } from './above-headline';
import { cutAfterStory } from './story-element';
import { isProductPage } from './product-page';
import { withMainLandmark } from './main-landmark';
import { liftMainLandmark } from './landmark-weight';

export interface TextDensityOptions {
  /** Content-Type header of the response, for decoding bytes. */
  contentType?: string;
  /** The page's URL: thread URLs of forum engines switch to the forum model. */
  url?: string;
  scoring?: Partial<ScoringParams>;
  selection?: Partial<SelectionParams>;
  content?: Partial<ContentParams>;
  /** Keep the headline line in `text` whenever it lies inside the content (default: only when it is part of the article block). */
  keepTitle?: boolean;
  /** Forces the forum model on or off (default: forumEvidence decides). */
  forum?: boolean;
  /** `parseHtml` of this very HTML, when the caller already has it (the page is then not parsed again). */
  parsed?: DomRoot;
}

export interface ExtractedPage {
  title: string;
  /** Main text, one paragraph per line. */
  text: string;
  paragraphs: string[];
  author?: string;
  /** ISO 8601, as precise as the page states it (a day, or a time with the page's offset). */
  published_at?: string;
  /** When the page says it was last changed (ISO 8601, as precise as stated). */
  modified_at?: string;
  lang: string;
}

/**
 * Whether 03/05/2024 means 3 May: the page's language is not US English, or its host is under
 * a country domain other than .us (numeric dates elsewhere put the day first).
 */
function dayFirstLocale(lang: string | undefined, url: string | undefined): boolean | undefined {
  const l = (lang ?? '').toLowerCase();
  if (l && l !== 'en' && l !== 'en-us' && !l.startsWith('zh') && !l.startsWith('ja') && !l.startsWith('ko')) return true;
  const host = url ? /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1] ?? '' : '';
  if (/\.(?:uk|au|nz|ie|in|za|de|fr|es|it|nl|be|ch|at|br|pt|ru|pl|se|no|dk|fi)$/i.test(host)) return true;
  // Plain "en" (or none) says nothing about the order: the page's own dates tell (undefined).
  return l === 'en' || l === '' ? undefined : false;
}

/** Below this much text the page shows next to nothing (a shell whose parts a script reveals). */
const SHELL_CHARS = 2000;

/**
 * The lines of a page that shows next to nothing because its parts wait in `display:none` or
 * `aria-hidden` containers a script reveals (eBay's streamed modules), read with those containers shown, when
 * they hold several times more text; else the lines as they are. Costs a second walk on those
 * pages only.
 */
function revealed(root: DomRoot, lines: Block[], sectionAnchors: boolean, reviewsAsComments: boolean): Block[] {
  const chars = (ls: Block[]): number => ls.reduce((n, b) => n + b.chars, 0);
  const shown = chars(lines);
  if (shown >= SHELL_CHARS) return lines;
  const all = toBlocks(root, true, true, sectionAnchors, reviewsAsComments);
  return chars(all) >= Math.max(SHELL_CHARS, 3 * shown) ? all : lines;
}

/** A headline without spaces and punctuation, for comparing. */
function headlineKey(s: string): string {
  return s.replace(/[\s\p{P}\p{S}]+/gu, '');
}

/**
 * The headline line: a heading with the title's words, else (sites that style a <div> as the
 * headline) any short line with exactly the title's characters.
 */
function headline(blocks: Block[], title: string, titleKey: string): Block | undefined {
  return blocks.find((b) => b.heading > 0 && b.text === title)
    ?? (titleKey.length >= 4 ? blocks.find((b) => b.text.length <= 120 && headlineKey(b.text) === titleKey) : undefined);
}

/** How long a part of the title must be to stand for the headline (not a site name, "Blog"). */
const MIN_TITLE_PART_CHARS = 20;

/** The first short line whose characters are the longest part of the title split at its separators. */
function titlePartLine(blocks: Block[], title: string): number | undefined {
  const part = title.split(TITLE_PART_SEPARATOR_RE).map((s) => s.trim()).reduce((a, b) => (b.length > a.length ? b : a), '');
  if (part.length < MIN_TITLE_PART_CHARS || part === title) return undefined;
  const key = headlineKey(part);
  return blocks.find((b) => b.text.length <= 120 && headlineKey(b.text) === key)?.index;
}

/** What sites put between a headline and their name in a title: " | ", " - ", " – ", " · ". */
const TITLE_PART_SEPARATOR_RE = /\s+[-|–—·»:]\s+/;

/**
 * The content found above the footer where the winner is the page's footer (footer-winner.ts),
 * if that is a text; else the winner. A thread's posts end where they end.
 */
function aboveFooter(blocks: Block[], values: number[], chosen: Block[], forum: boolean, choose: (vs: number[]) => Block[]): Block[] {
  if (forum || !isFooterWinner(blocks, chosen)) return chosen;
  const above = choose(valuesAbove(values, chosen[0]!));
  return above.reduce((n, b) => n + b.chars, 0) >= MIN_ABOVE_FOOTER_CHARS ? above : chosen;
}

/**
 * The content lines of the paragraph-container model (second-opinion.ts) when the segment
 * model found next to nothing where that model finds a real text; else the segment model's.
 */
function secondOpinion(blocks: Block[], first: Block[], selection: SelectionParams, wrappers: ReadonlySet<DomElement>): Block[] {
  const second = paragraphContainer(blocks);
  // The footer's disclaimers are paragraphs with commas too: they are not the page's text.
  if (!second || !preferSecond(first, second.lines) || partOfFirst(first, second) || isFooterWinner(blocks, second.lines)) return first;
  const weights = new Map<DomElement, number>([...wrappers].map((el) => [el, 0]));
  const selected = selectLines(blocks, { start: 0, end: blocks.length - 1, sum: 0 }, second.container, true, selection, weights, true);
  // Teasers of cards are prose inside links: the line selection drops link lines, the second opinion keeps them.
  const kept = new Set(selected);
  const teasers = second.lines.filter((b) => !kept.has(b) && linkRatio(b) > 0.5 && isProse(b));
  const lines = teasers.length ? [...selected, ...teasers].sort((a, b) => a.index - b.index) : selected;
  return preferSecond(first, lines) ? lines : first;
}

/**
 * The forum model's reading, with the net the other pages get where it found next to nothing:
 * threads skip the segment model's cross-check (secondOpinion), as a paragraph container would
 * cut a thread to its one longest post, so a thread model that found no posts and a segment
 * model that found no run (a board's rules or help page, a thread whose markup the engine
 * changed) left the page's text empty. Only a weak reading is looked at again: a thread that
 * reads well costs nothing more and is never traded for a Readability-style container.
 */
function forumSafetyNet(blocks: Block[], reading: Block[], selection: SelectionParams, wrappers: ReadonlySet<DomElement>): Block[] {
  if (reading.reduce((n, b) => n + b.chars + 4 * b.cjkChars, 0) >= WEAK_READING_CHARS) return reading;
  return lastResort(blocks, secondOpinion(blocks, reading, selection, wrappers), selection.maxLinkRatio);
}

/** Below this much text (CJK characters counting five) the forum model found next to nothing (lastResort's bar). */
const WEAK_READING_CHARS = 200;

/**
 * Whether the second opinion's container is a part of what the first found, which holds more
 * (one card of the list the first found: the card with the longest run of commas, an author
 * list): the second would only lose the rest.
 */
function partOfFirst(first: Block[], second: { container: DomParent; lines: Block[] }): boolean {
  const size = (ls: Block[]): number => ls.reduce((n, b) => n + b.chars, 0);
  return size(first) >= 2 * size(second.lines) && first.some((b) => isAncestorOf(second.container, b.owner));
}

/**
 * Whether a headline the chosen content holds is part of the article block: a plain heading
 * with no class or id of its own and no <header> around it sits in the article's own flow, as
 * in hand-written and older CMS article HTML, and belongs to the text (DAnIEL's references keep
 * it). A headline the template styles as a component of its own (h1.headline, h1#artibodyTitle,
 * <header>) is page furniture above the body: only the title (the Scrapinghub and WCXB bodies
 * leave it out).
 */
function inArticleFlow(head: Block, body: DomParent): boolean {
  // A headline styled as a <div> or <p> is a line of the content like any other.
  if (head.heading === 0) return true;
  if (!isElement(head.owner) || head.owner.attribs.class || head.owner.attribs.id) return false;
  for (let p: DomParent | null = head.owner; p && p !== body; p = p.parent) {
    if (isElement(p) && p.name === 'header') return false;
  }
  return true;
}

/**
 * The chosen lines' clean-up, in order: the last resort first (it may replace them all), then what
 * repeats or tallies, then what follows the piece (other stories, list titles), and last what is
 * given back (link lists and item links between kept lines).
 */
function tidyLines(
  blocks: Block[], chosen: Block[],
  o: { maxLinkRatio: number; items: ReadonlyMap<Block, unknown> | undefined; title: string; listing: boolean; root: DomParent },
): Block[] {
  let lines = lastResort(blocks, chosen, o.maxLinkRatio);
  lines = dropCardControls(dropCardRepeats(dropCopiedRuns(lines), o.items));
  lines = dropPlaceholders(dropBreakdowns(lines), o.title);
  // A listing's cards name their items in alt texts too.
  if (!o.listing) lines = dropAltCaptions(blocks, lines, captionAlts(o.root));
  lines = cutOtherStories(blocks, lines, o.listing);
  lines = dropListTitles(blocks, teaserTitles(blocks, lines), o.listing);
  lines = keepFlowLists(blocks, lines, o.listing);
  return keepItemLinkLines(blocks, lines);
}

/**
 * The `text_density` extractor: lines of visible text scored by length, link share and
 * punctuation, smoothed with a Gaussian, the maximum-sum segment(s) taken as the main content
 * (Zhu et al. 2013) and mapped back to their DOM container (compare CETD).
 */
export function extract(html: string | Uint8Array, opts: TextDensityOptions = {}): ExtractedPage {
  const source = typeof html === 'string' ? html : decodeHtml(html, opts.contentType).text;
  const root = opts.parsed ?? parseHtml(source);
  const evidence = opts.forum === undefined ? forumEvidence(source, opts.url) : undefined;
  const forum = opts.forum ?? evidence !== undefined;
  const scoring = { ...DEFAULT_SCORING, ...(forum ? FORUM_SCORING : {}), ...opts.scoring };
  const selection = { ...DEFAULT_SELECTION, ...(forum ? FORUM_SELECTION : {}), ...opts.selection };
  const els = pageElements(root);
  const body: DomParent = els.body ?? root;
  const meta = metaMap(els);
  const title = findTitle(els, meta);
  const titleKey = headlineKey(title);
  // The whole document, not the first <body>: a stray tag can leave the page inside <head> or
  // put a second <html><body> up there (htmlparser2 nests them where browsers would not).
  // Off an article, customers' reviews are comments on the product (a review article's text is its own).
  const reviewsAsComments = !forum && meta.get('og:type') !== 'article';
  const lines = revealed(root, toBlocks(root, true, false, !forum, reviewsAsComments), !forum, reviewsAsComments);
  const { blocks, wrappers, panels } = judgeFurniture(lines, scoring, headline(lines, title, titleKey));
  const ld = jsonLd(els);
  const onePiece = isOnePiece(meta, ld);
  const head = headline(blocks, title, titleKey);
  const titleIndex = head?.index;
  const items = forum ? undefined : findItemLines(blocks, head);
  // Where no class word names the content, the <main> landmark does (landmark-weight.ts); a
  // dated piece's landmark holds its teasers and boxes too, and a page of repeated items is
  // read by its items' own values (items.ts): only a page of sections is lifted.
  if (!forum && !onePiece && !items) liftMainLandmark(blocks);
  const values = items ? itemValues(items, nodeValues(blocks, scoring), (b) => lineValue(b, scoring)) : nodeValues(blocks, scoring);
  const contentParams = { ...DEFAULT_CONTENT, forum, forumByUrlOnly: evidence === 'url', ...opts.content };
  // A thread path in the URL alone (a news site's /topic/ page, a shop's /t/ product) without
  // a list of posts on the page, or whose list is of teasers, is no thread: the page is read as
  // any other page (the forum model keeps the dates of teasers and drops their linked titles).
  if (evidence === 'url') {
    const posts = threadPosts(blocks, values, contentParams);
    if (!posts || isTeaserList(blocks, posts)) return extract(source, { ...opts, forum: false, parsed: root });
  }
  // A listing's items are its content, dated as they may be. A thread known by its URL alone
  // may be a magazine's question with a blog's comment widget beneath it: its replies are found
  // by their shape as well as by their class words (forumContent then keeps the question alone).
  if ((!forum || evidence === 'url') && !items) markCommentThreads(blocks, values, titleIndex, title);
  const topLine = head ?? blocks.find((b) => b.heading === 1);
  const choose = (vs: number[]): Block[] => withListIntro(blocks, withItemList(blocks, chooseContent(blocks, vs, titleIndex, scoring, selection, contentParams, wrappers, items), items, selection, topLine), items, topLine);
  const listed = aboveFooter(blocks, values, choose(values), forum, choose);
  const first = forum ? listed : withSiblingPosts(blocks, withCardModules(blocks, listed, selection), head, selection);
  const opinion = forum
    ? forumSafetyNet(blocks, shownVoteStates(dropRelativeStamps(dropPostFurniture(cutPastedDumps(dropRepeatedLines(first))))), selection, wrappers)
    : secondOpinion(blocks, first, selection, wrappers);
  // A section the template rendered once per breakpoint is read once.
  const listing = items !== undefined;
  // A site's page about what it offers spreads its text over the sections of its <main> (main-landmark.ts).
  const landed = forum || listing || onePiece ? opinion : withMainLandmark(blocks, opinion, selection, wrappers);
  const panelled = forum ? landed : withSiblingPanels(blocks, withWholeTables(blocks, tidyLines(blocks, landed, { maxLinkRatio: selection.maxLinkRatio, items, title, listing, root })), panels);
  // A shop's template prints a product's sections once per breakpoint or slide: they are read once.
  const tidied = !forum && isProductPage(meta, ld) ? dropRepeatedLines(panelled) : panelled;
  // A thread's opening post is found by forum-posts.ts; an article is one piece under its
  // headline, whose header section (headline, standfirst) its body leaves out. A page of repeated
  // items (a service page's grid of offers, a shop's parts index) may open with a hero too.
  const sections = forum || (onePiece && meta.get('og:type') === 'article') ? tidied : withIntroSection(blocks, tidied, onePiece ? head : undefined);
  // A Chinese story begins with its headline (cjk-headline.ts); elsewhere the headline is the
  // title field, and text begins with it only when it is a plain part of the article block (see inArticleFlow).
  const cjkArticle = !forum && !listing && isCjkText(sections);
  const fromHead = forum || listing ? sections : cutAfterStory(cutAboveHeadline(sections, head), head);
  // Last, the net under all the rules: a page with a real amount of text is never read as empty.
  const chosen = neverEmpty(blocks, cjkArticle ? withCjkHeadline(blocks, fromHead, head) : fromHead);
  const keepHead = head !== undefined && (opts.keepTitle === true || cjkArticle || inArticleFlow(head, body));
  const pageUrls = [opts.url ?? '', meta.get('og:url') ?? ''];
  const isHeadline = (b: Block): boolean => b.text.length <= 120 && headlineKey(b.text) === titleKey;
  const echoes = forum ? undefined : pageEchoes(chosen, { pageUrls, head, isHeadline });
  const paragraphs = chosen
    .filter((b) => !echoes?.has(b))
    .filter((b) => (b === head ? keepHead : opts.keepTitle === true || !(b.heading > 0 && b.text === title)))
    .map((b) => b.text);
  const text = paragraphs.join('\n');
  const lang = findLang(els, text);
  // Datelines and bylines are left out of the text as boilerplate: they are read around the headline.
  const anchor = titleIndex ?? chosen[0]?.index ?? 0;
  const anchors = chosen[0] && chosen[0].index !== anchor ? [anchor, chosen[0].index] : [anchor];
  // A headline worded otherwise than the title (an SEO <title>, "Professional Business
  // Certifications…" over an <h1> "Best Business Certification Programs…") matched no line: the
  // page's first <h1> is then where its dateline is read too, after the other anchors; without
  // an <h1>, the line that is the title's own part ("Top 5 HR Software | DianaHR" over a styled
  // "Top 5 HR Software").
  const headLine = titleIndex === undefined ? blocks.find((b) => b.heading === 1)?.index ?? titlePartLine(blocks, title) : undefined;
  if (headLine !== undefined && !anchors.includes(headLine)) anchors.push(headLine);
  const locale = dayFirstLocale(els.html?.attribs.lang, opts.url);
  const bylineOpts = { zh: lang === 'zh' || lang === 'ja', dayFirst: locale ?? false, authorLines: authorLines(els.authorEls), headline: titleIndex };
  let byline = findByline(blocks, anchors, bylineOpts);
  // A locale that says nothing about the order: the page's own dates decide, looked at only
  // when the dateline holds a date that reads either way.
  if (locale === undefined && byline.dates.some((d) => d.alt !== undefined) && writesDayFirst(blocks.map((b) => b.text).join('\n'))) {
    bylineOpts.dayFirst = true;
    byline = findByline(blocks, anchors, bylineOpts);
  }
  const dayFirst = bylineOpts.dayFirst;
  // Last, the author a script's data object names (a tag manager's data layer) where the markup
  // names none, else the person a copyright line names (a personal site's footer).
  // Whether the page's lines name someone (the metadata's author may be a login no line shows), read once when asked.
  let pageKey: string | undefined;
  const shown = (name: string): boolean => (pageKey ??= nameKey(blocks.map((b) => b.text).join(' '))).includes(nameKey(name));
  const author = findAuthor(els, meta, ld, byline, forum, opts.url, shown) ?? cleanAuthor(dataObjectAuthor(source)) ?? copyrightAuthor(els, siteNames(meta, ld), opts.url);
  // The byline and the author box are read for the author field, and left out of the text (a
  // listing's author lines are its items' own).
  const bodyParagraphs = forum || listing ? paragraphs : dropAuthorEchoes(paragraphs, author);
  const bodyText = bodyParagraphs === paragraphs ? text : bodyParagraphs.join('\n');
  const fromTitle = blocks.slice(anchor, anchor + 12).map((b) => b.text).join('\n');
  // A "Last updated" line far from the headline (the foot of a documentation page) dates the last
  // change only: the page may have been published years before.
  const modified = findModified(els, meta, ld, byline) ?? labelledDate(blocks, dayFirst, 'updated');
  // A date the page states as the first publication's ("Originally published …") wins: it is
  // what every other date on the page is later than. A page that states only when it was last
  // changed (a service or documentation page, its metadata or a "Last updated" line) was published by then.
  const published = labelledDate(blocks, dayFirst, 'original')
    ?? findPublished(els, meta, ld, `${fromTitle}\n${text}`, byline, opts.url, source, () => labelledDate(blocks, dayFirst)) ?? modified;
  return {
    title,
    text: bodyText,
    paragraphs: bodyParagraphs,
    ...(author ? { author } : {}),
    ...(published ? { published_at: published } : {}),
    ...(modified ? { modified_at: modified } : {}),
    lang,
  };
}
