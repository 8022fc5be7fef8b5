import { isCollapsedPanel, isSwitchedPanel } from './collapsed-panels';
import { isSectionAnchorId, namesOwnHeading } from './section-ids';
import { adjacentElement, isText, type DomElement, type DomNode } from './dom';

/** Elements whose text is never page content. */
const DROPPED_TAGS = new Set([
  'script', 'style', 'template', 'svg', 'math', 'canvas', 'iframe', 'object', 'embed', 'video', 'audio',
  'title', 'figcaption', 'select', 'option', 'button', 'input', 'textarea', 'nav', 'aside', 'footer', 'menu', 'dialog', 'link', 'meta',
]);

const HIDDEN_STYLE_RE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
/**
 * Cookie-consent and privacy managers: long, well-punctuated and never content. (Not a bare
 * `cmp-`: Adobe's core components name every layout container `cmp-container`.)
 */
const CONSENT_RE = /onetrust|cookie|consent|gdpr|didomi|truste|qc-cmp|usercentrics/i;
/**
 * Consent-management platforms by name: their panels are never a page's layout, whatever they
 * hold (a privacy centre of long purposes can outweigh a home page of teasers).
 */
const CONSENT_PLATFORM_RE = /onetrust|didomi|truste|qc-cmp|usercentrics|cookiebot|osano|iubenda|termly/i;

/** An element of a consent-management platform (its id or class names the vendor). */
export function isConsentPlatform(el: DomElement): boolean {
  const { class: cls, id } = el.attribs;
  return (id !== undefined && CONSENT_PLATFORM_RE.test(id)) || (cls !== undefined && CONSENT_PLATFORM_RE.test(cls));
}

const HIDDEN_CLASS_RE = /(?:^|\s)(?:hidden|hide|sr-only|u-sronly|screen-reader-text|visually-hidden|visuallyhidden|offscreen|d-none)(?:\s|$)/i;
/** The same behind a framework's camel-case prefix (`ipsHide`, Invision Community's utility class; not `tabHidden`'s words in a longer name). */
const PREFIXED_HIDDEN_RE = /(?:^|\s)[a-z]{1,5}(?:Hide|Hidden)(?:\s|$)/;

const hiddenWord = (cls: string): boolean => HIDDEN_CLASS_RE.test(cls) || PREFIXED_HIDDEN_RE.test(cls);

/**
 * True when an element and everything under it is left out before scoring. `<head>` itself is
 * walked: htmlparser2 does not end the head at the first body element as browsers do, so a
 * stray tag high up leaves the whole page inside `<head>` (its title, meta, script and style
 * children are dropped one by one). `keepStyled`: an element hidden by its inline style or
 * `aria-hidden` is read (a shell page's parts waiting for a script, text-density.ts).
 */
export function isDropped(el: DomElement, keepStyled = false): boolean {
  if (el.type !== 'tag') return true;
  if (DROPPED_TAGS.has(el.name)) return !(el.name === 'aside' && inNonModalSheet(el));
  // Each attribute read once: attribute objects come in many shapes, so every read is a slow lookup.
  const a = el.attribs;
  if (el.name === 'span' && a.class && STARTER_BADGE_RE.test(a.class)) return true;
  if (a.title !== undefined && isInitialOfTitle(el, a.title)) return true;
  const style = a.style;
  // A folded accordion or an inactive tab panel is hidden the same ways, and is the page's text (collapsed-panels.ts).
  if (!keepStyled && (a['aria-hidden'] === 'true' || (style && HIDDEN_STYLE_RE.test(style))) && !isCollapsedPanel(el)) return true;
  const role = a.role;
  if (role === 'navigation' || role === 'complementary' || role === 'contentinfo') return true;
  // A scripted dropdown is the dropped <select> by its ARIA role: its choices (a review filter's
  // list of activities, a size picker) are no text of the page. (Not role=menu: templates put it
  // on tab strips whose labels head the page's sections.)
  if (role === 'listbox' || role === 'option') return true;
  // A modal by its ARIA role is the dropped <dialog>: a cookie-preferences form, a sign-up pop-up,
  // a price note waiting for a click. One that says it is no modal (aria-modal="false": a shop's
  // description sheet beside the product) stays.
  if ((role === 'dialog' || role === 'alertdialog') && a['aria-modal'] !== 'false') return true;
  // A tooltip's body waits for a hover over its icon: a note the template attaches to a field on
  // every page (what "open-back" means, what a final sale is), not the page's text.
  if (role === 'tooltip') return true;
  const cls = a.class;
  return cls !== undefined && cls.includes('tip') && TOOLTIP_BODY_RE.test(cls);
}

/**
 * The body of a tooltip by its class (`tool-tip__content`, `tooltip-inner`, `tooltip-body`), not
 * the tooltip's trigger or label (`has-tooltip`, `icon-tooltip-text`: a label that may be all the
 * page says of a feature).
 */
const TOOLTIP_BODY_RE = /(?:^|\s)(?:[\w-]*[-_])?tool-?tip(?:__|[-_])(?:content|body|inner|bubble|popup|panel)(?:\s|$)/i;

/**
 * A letter standing for the word its tooltip spells out: a letter avatar (`<span title="JonB">J</span>`,
 * shown where a poster has no picture) or a role badge (`<a title="submitter">S</a>`). Run into
 * the poster's line it makes a status or a button row read as text ("J Offline").
 */
function isInitialOfTitle(el: DomElement, title: string): boolean {
  const only = el.children.length === 1 ? el.children[0] : undefined;
  if (!only || !isText(only)) return false;
  const letter = only.data.trim();
  const spelled = title.trim();
  return letter.length === 1 && /\p{L}/u.test(letter) && spelled.length > 1 && spelled[0]!.toLowerCase() === letter.toLowerCase();
}

/**
 * The badge a forum engine prints after the name of whoever started the thread ("JosephF
 * Discussion starter"): it runs into the poster's name line, which then reads as no name. A
 * class word of its own (`message-attribution-discussion-starter`, `threadstarter`), not the
 * first post's `message-threadStarterPost`.
 */
const STARTER_BADGE_RE = /(?:^|[\s_-])(?:discussion|thread|topic)-?starter(?:\s|$)/i;

/**
 * An `<aside>` that is the panel of a sheet saying it is no modal (`role="dialog"
 * aria-modal="false"` a few levels up): a shop's description sheet slides in beside the product
 * as an aside, and holds the product's own description, not a side note.
 */
function inNonModalSheet(el: DomElement): boolean {
  let up = el.parent;
  for (let depth = 0; depth < 3 && up && up.type === 'tag'; depth++, up = up.parent) {
    const a = (up as DomElement).attribs;
    if (a.role === 'dialog') return a['aria-modal'] === 'false';
  }
  return false;
}

/**
 * Hidden by a class word (`hidden`, `sr-only`, `d-none`…), the `hidden` attribute or a consent
 * manager's name: usually a modal, screen-reader text or cookie banner, but some pages hide their
 * whole body until a script runs (`<div class="root hide">`, React's streamed `<div hidden
 * id="S:0">` that a script moves into place) or carry the word on a layout element
 * (`<body class="cookies-not-set">`), so the word is judged against what the element holds
 * (layout.ts), not obeyed blindly.
 */
export function isHiddenByClass(el: DomElement): boolean {
  const { class: cls, id } = el.attribs;
  // A tab panel by its ARIA role or an accordion by its class word (a guide's install command per shell, one tab shown): the page's own text as much.
  const panel = isCollapsedPanel(el) && !(cls !== undefined && CONSENT_RE.test(cls));
  if (el.attribs.hidden !== undefined) return !panel && !(id !== undefined && STREAMED_RE.test(id)) && !afterToggle(el) && !isSwitchedPanel(el, hiddenWord);
  if ((cls === undefined && id === undefined) || el.name === 'body' || el.name === 'html') return false;
  if (cls !== undefined && CONSENT_RE.test(cls)) return true;
  if (id !== undefined && CONSENT_RE.test(id) && !namesOwnHeading(el)) return true;
  return cls !== undefined && hiddenWord(cls) && !panel && !afterToggle(el) && !isSwitchedPanel(el, hiddenWord);
}

/**
 * A hidden element right after the button that opens it, in one of a run of items alike (a FAQ
 * whose questions are <button>s and whose answers wait in the next <div class="hidden">; a
 * utility-class template names no accordion): a collapsed panel of the page's own text. A lone
 * button and its hidden box (a chat widget, a cart pop-up) is no series.
 */
function afterToggle(el: DomElement): boolean {
  const item = el.parent;
  if (!item || item.type !== 'tag') return false;
  const prev = adjacentElement(el, -1, textOrComment);
  if (!prev || !(prev.name === 'button' || prev.name === 'summary' || prev.attribs['aria-expanded'] !== undefined)) return false;
  if (prev.attribs.class !== undefined && hiddenWord(prev.attribs.class)) return false;
  const itemEl = item as DomElement;
  const alike = (s: DomElement | undefined): boolean => s !== undefined && s.name === itemEl.name && s.attribs.class === itemEl.attribs.class;
  return alike(adjacentElement(itemEl, -1, textOrComment)) || alike(adjacentElement(itemEl, 1, textOrComment));
}

/** Text and comments: what stands between a toggle and its panel, or between alike items. */
const textOrComment = (n: DomNode): boolean => n.type === 'text' || n.type === 'comment';

/**
 * React's streamed server rendering sends each suspended part as `<div hidden id="S:3">`, which a
 * script moves into place at once: the page as shown, not a hidden element.
 */
const STREAMED_RE = /^S:\d+$/;

/** Block-level elements: each one starts and ends a line of text. */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'blockquote', 'body', 'center', 'dd', 'details', 'dir', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'li', 'main',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'ul', 'caption',
  'legend', 'br', 'img', 'time',
]);

/** class/id words of page furniture (share bars, related links, ads, …). */
const NEGATIVE_RE = new RegExp([
  'share', 'social', 'related', 'recommend', 'promo', 'newsletter', 'subscri', 'sidebar', 'footer',
  'masthead', 'breadcrumb', 'advert', '(?:^|[-_\\s])ads?(?:$|[-_\\s])', 'sponsor', 'cookie', 'popup', 'modal', 'signup',
  'login', 'outbrain', 'taboola', 'trending', 'most-?popular', 'more-?stories', 'read-?more', 'also-?read', 'disclaimer',
  'copyright', 'tags?(?:$|[-_\\s])', 'toolbar', 'caption', 'credit', 'byline', 'author-?(?:bio|info|box)', 'rating',
  'pagination', 'pager', 'print', 'skip', 'banner', 'u-hide', 'inline-?video', 'nocontent', 'topbar', 'navbar',
  // A box a script opens over the page (a cart-merge prompt) that names itself a dialog in its class
  // only; not a word qualifying another (Drupal's `dialog-off-canvas-main-canvas` around the page).
  '(?:^|[-_\\s])dialog(?:$|[_\\s])',
  'crumbs?(?:$|[-_\\s])', 'subpath', 'cur-?pos', '(?:^|[-_\\s])(?:sub|top|main|site)-?nav(?:$|[-_\\s])',
  // A summary a model wrote of the page (a thread's "Click for summary" box), not its writers' text.
  '(?:^|[-_\\s])ai-?summary',
  // Pinyin class names of Chinese sites: share, related, recommend, hot list, ranking, copyright, disclaimer, position (breadcrumb), editor, source.
  // They start a class word ("remen" also hides in "requirements").
  '(?:^|[-_\\s\\d])(?:fenxiang|xiangguan|tuijian|remen|paihang|banquan|mianze|weizhi|daohang|bianji|laiyuan)',
].join('|'), 'i');

const POSITIVE_RE = /article|content|entry|post|story|text|body|main|detail|zoom|cont\b|news|blog|message|thread|(?:^|[-_\s])(?:zhengwen|neirong|wenzhang)/i;

const COMMENT_RE = /comment|disqus|respond|reactions|discussion|pinglun/i;
/**
 * Customers' reviews under a product (`product-reviews`, `user_reviews`, `review-card`,
 * `reviewText`). `review` as a word of its own, not `preview` or `reviewer`; its case kept, so
 * `reviewText` ends the word where `reviewer` does not. Not after `with`, `has` or `no`: a
 * modifier saying a box shows a rating (a product card's `title-container--with-reviews`) names
 * the box, which holds the card's name, not what buyers wrote.
 */
const REVIEW_RE = /(?:^|[-_\s])(?<!(?:with|has|no)[-_]+)[Rr]eviews?(?=$|[-_\s]|[A-Z])/;

/**
 * A CMS's taxonomy labels on a post (WordPress's post_class: `type-post status-publish
 * format-standard category-product-reviews tag-social-media`): the words after the prefix name the
 * post's topic, not the element's role, so a post filed under "product reviews" or "social media"
 * is neither customers' reviews nor a share bar. Only where the class holds several such labels:
 * one `tag-cloud` or `category-list` is a widget named for what it lists.
 */
const TAXONOMY_TOKEN_RE = /(?:^|\s)(?:category|tag|post_tag|format|status|type)-\S+/g;
const MIN_TAXONOMY_TOKENS = 2;

/** A class without its taxonomy labels (TAXONOMY_TOKEN_RE), when it holds several; else as it is. */
export function roleClass(klass: string): string {
  if (klass.indexOf('-') < 0) return klass;
  const labels = klass.match(TAXONOMY_TOKEN_RE);
  return labels && labels.length >= MIN_TAXONOMY_TOKENS ? klass.replace(TAXONOMY_TOKEN_RE, ' ') : klass;
}

function classAndId(el: DomElement): string {
  return `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
}

/**
 * Class tokens that style rather than name an element: Tailwind's variants (`md:flex`,
 * `group-[.active]:block`) and utilities (`overflow-hidden`), and a field whose label is hidden
 * (`field--label-hidden`). Their words (`hidden`, `banner` in an arbitrary value…) say nothing
 * about what the element is.
 */
const UTILITY_TOKEN_RE = /(?:^|\s)(?:\S*:\S*|overflow(?:-[xy])?-hidden|\S*label-hidden)(?=\s|$)/g;
/**
 * Hidden at a desktop's width (`lg:hidden`, `hidden-desktop`, `d-lg-none`): the mobile copy of a
 * block the page shows again for wide screens. Other `hidden` words (`overflow-hidden`,
 * `hidden-xs`, `elementor-hidden-mobile`, a closed accordion's `panel-hidden`) hide nothing a
 * reader at a desktop sees, so `hidden` alone is no furniture word.
 */
const DESKTOP_HIDDEN_RE = /(?:^|[\s_-])hidden-(?:desktop|lg|md|xl)(?:\s|$)|(?:^|\s)(?:md|lg|xl):hidden(?:\s|$)|(?:^|\s)d-(?:md|lg|xl)-none(?:\s|$)/i;

/**
 * Hidden on a phone's screen (`elementor-hidden-mobile`, `hidden-xs`): a page never hides its
 * main text from phones, so what it drops there is a side column (a contact box, a list of
 * posts beside the article).
 */
const MOBILE_HIDDEN_RE = /(?:^|\s)(?:elementor-hidden-mobile|hidden-xs|hidden-phone|hide-mobile|hide-on-mobile|hidden-mobile|mobile-hidden)(?:\s|$)/i;

/** Hidden at a desktop's width by its class (see DESKTOP_HIDDEN_RE). */
export function isHiddenOnDesktops(el: DomElement): boolean {
  return DESKTOP_HIDDEN_RE.test(el.attribs.class ?? '');
}

/** Hidden on phones by its class (see MOBILE_HIDDEN_RE); layout.ts tells a side column from a desktop copy of the text. */
export function isHiddenOnPhones(el: DomElement): boolean {
  return MOBILE_HIDDEN_RE.test(el.attribs.class ?? '');
}

/** The wrapper of an embedded social post: `social-media-embed`, `embed-twitter`, `instagram-embed`. */
const SOCIAL_EMBED_RE = /(?:social|twitter|tweet|instagram|tiktok|facebook)[-_]?(?:media[-_]?|post[-_]?)?embed|embed(?:ded)?[-_]?(?:social|twitter|tweet|instagram|tiktok|facebook)/i;

/** -1 for furniture, +1 for content-like class/id words, 0 otherwise (html and body count 0). */
export function classWeight(el: DomElement): number {
  if (el.name === 'body' || el.name === 'html') return 0;
  const klass = roleClass(el.attribs.class ?? '');
  const id = el.attribs.id ?? '';
  const words = `${klass} ${isSectionAnchorId(el) ? '' : id}`.replace(UTILITY_TOKEN_RE, ' ');
  if (words.trim().length === 0) return 0;
  // An embedded post (a tweet, an Instagram post the story quotes) is part of the story, though its wrapper says "social".
  if (SOCIAL_EMBED_RE.test(words)) return 0;
  const neg = NEGATIVE_RE.test(words) || DESKTOP_HIDDEN_RE.test(klass) || MOBILE_HIDDEN_RE.test(klass);
  const pos = POSITIVE_RE.test(words);
  // An admonition box (a note, a warning, a tip) is the text's own aside, whatever other word its
  // template adds (mdBook's `blockquote-tag blockquote-tag-note`).
  if (neg && !pos && ADMONITION_RE.test(klass)) return 0;
  if (neg && pos && headedByFurniture(words)) return -1;
  return neg && !pos ? -1 : pos && !neg ? 1 : 0;
}

/**
 * Whether one compound class word names furniture by its last telling part, as English compounds
 * put the head noun last: `article-footer__inner` is a footer (of the article), `post-share` a
 * share bar, where `subscriber-content` is content. Only a word that holds both kinds of part:
 * separate words (`post footer`) say nothing about which one the element is.
 */
function headedByFurniture(words: string): boolean {
  for (const token of words.split(/\s+/)) {
    if (!NEGATIVE_RE.test(token) || !POSITIVE_RE.test(token)) continue;
    const parts = token.split(/[-_]+/);
    for (let i = parts.length - 1; i >= 0; i--) {
      const part = parts[i]!;
      if (NEGATIVE_RE.test(part)) return true;
      if (POSITIVE_RE.test(part)) break;
    }
  }
  return false;
}

/**
 * Class words of an admonition box by its kind: Sphinx's `admonition note`, GitHub's
 * `markdown-alert-warning`, MDN's `notecard`. Not the bare `admonition`: Material for MkDocs
 * styles its product boxes `admonition recommendation` too, which are furniture.
 */
const ADMONITION_RE = /(?:^|[-_\s])(?:callout|notecard|note|warning|tip|caution|important|hint|danger|attention)(?:$|[-_\s])/i;

/**
 * An admonition box by its class: one named by its kind (ADMONITION_RE), or Sphinx's "See also"
 * box (`admonition seealso`), the pointers a section of documentation ends with.
 */
export function isAdmonition(el: DomElement): boolean {
  const klass = el.attribs.class;
  return klass !== undefined && (ADMONITION_RE.test(klass) || /(?:^|\s)seealso(?:\s|$)/i.test(klass));
}

/** The poster box of a forum post (name, rank, join date, post count, signature, the badges a member earned). */
const POSTER_RE = /userExtras|user[-_]?info|user[-_]?details|user[-_]?stats|postprofile|profile[-_]?(?:info|details)|poster[-_]?info|author[-_]?info|(?<!no[-_]?)avatar|signature|member[-_]?(?:info|details)|reputation|user[-_]?title|postbit_legacy|postdetails_left|message-user(?:Details|Arrow)?\b(?!-?content)|badges\b/i;

export function isPosterBox(el: DomElement): boolean {
  return POSTER_RE.test(classAndId(el));
}

/** A record's field labelled as comments: "Comments: 35 pages, 4 figures" under a paper's title. */
const COMMENTS_FIELD_RE = /^\s*comments?\s*:\s*[^\s:]/i;
/** Characters such a field holds at most (a thread holds far more). */
const MAX_FIELD_CHARS = 300;

/**
 * An element holding one labelled "Comments:" field and nothing else (no block inside): a field
 * of a listed record (an index of papers notes their pages and figures so), named for its label,
 * not a thread of readers' comments. Asked per element (toBlocks caches isCommentArea by class
 * and id alone), and only of elements a comment word marks.
 */
export function isCommentsField(el: DomElement): boolean {
  let text = '';
  for (const c of el.children) {
    if (isText(c)) text += c.data;
    else if (c.type === 'tag') {
      const e = c as DomElement;
      if (BLOCK_TAGS.has(e.name)) return false;
      text += inlineText(e);
    }
    if (text.length > MAX_FIELD_CHARS) return false;
  }
  return COMMENTS_FIELD_RE.test(text);
}

function inlineText(el: DomElement): string {
  let text = '';
  for (const c of el.children) {
    if (isText(c)) text += c.data;
    else if (c.type === 'tag') text += inlineText(c as DomElement);
  }
  return text;
}

/** A reader-comment area: furniture on an article, the content itself on some forums. */
export function isCommentArea(el: DomElement): boolean {
  if (el.name === 'body' || el.name === 'html') return false;
  const { class: cls, id } = el.attribs;
  return (cls !== undefined && COMMENT_RE.test(roleClass(cls))) || (id !== undefined && COMMENT_RE.test(id) && !namesOwnHeading(el));
}

/** Paragraphs of running size (a sentence or more) an editor's review holds at least, under a heading of its own. */
const MIN_EDITORIAL_PARAGRAPHS = 3;
const MIN_EDITORIAL_PARAGRAPH_CHARS = 100;

/**
 * A box a review word marks that is the page's own text, not what buyers wrote: an editor's
 * review (a round-up's `product-review-card`: the product's heading, then paragraphs on it) or
 * such a review's header (the product's heading and a button, no paragraph). A buyer's review is
 * a paragraph under a name, at most under a one-line title; a box of several buyers' reviews
 * holds items the class marks again. Asked only of elements a review word marks, off an article.
 */
export function isOwnReviewBox(el: DomElement): boolean {
  let heading = false;
  let paragraphs = 0;
  let longParagraphs = 0;
  const visit = (e: DomElement): boolean => {
    for (const c of e.children) {
      if (c.type !== 'tag') continue;
      const k = c as DomElement;
      if (/^h[2-4]$/.test(k.name)) heading = true;
      else if (k.name === 'p') {
        paragraphs++;
        if (inlineText(k).trim().length >= MIN_EDITORIAL_PARAGRAPH_CHARS) longParagraphs++;
      } else if (visit(k)) return true;
      if (heading && longParagraphs >= MIN_EDITORIAL_PARAGRAPHS) return true;
    }
    return false;
  };
  return visit(el) || (heading && paragraphs === 0);
}

/**
 * Customers' reviews by a class word (REVIEW_RE): what buyers wrote under a product, as comments
 * are what readers wrote under a story. Only off an article (toBlocks' caller decides): a
 * review article's own text sits in `review-body`.
 */
export function isReviewArea(el: DomElement): boolean {
  const cls = el.attribs.class;
  return cls !== undefined && el.name !== 'body' && el.name !== 'html' && REVIEW_RE.test(roleClass(cls));
}
