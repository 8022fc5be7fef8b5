import type { Block } from './blocks';
import { isDateline } from './boilerplate-lines';

/** Separators of a breadcrumb trail: `>`, `>>`, `»`, `›`, fullwidth `＞`. */
const CRUMB_SEP_RE = /\s*(?:&gt;|>{1,2}|»|›|＞)\s*/;
/** A label before the trail: "您当前的位置 ：", "You are here:". */
const TRAIL_LABEL_RE = /^[^:：>»›＞]{1,14}[:：]\s*/;
const MAX_TRAIL_CHARS = 100;
/** A step of the trail is a section's name; only the last (the page itself, or "正文") may be a headline. */
const MAX_STEP_CHARS = 16;
/** A section's name: words, digits, spaces, `&` and hyphens; no code (`fn t(a: &i32) -> i32`, `--trailer <token>`) and no sentence. */
const STEP_RE = /^[\p{L}\p{N}][\p{L}\p{N}\s'’&·.-]*$/u;

/**
 * A breadcrumb trail ("经济> 正文", "文娱频道 > 要闻 正文", "Home › News › World"): linked section
 * names joined by arrows, ending with the page itself. Templates that style it with no class word
 * leave it inside the article's box; its words are no part of the text. Only a line with a link:
 * an arrow in plain words (a menu path a manual spells out) stays.
 */
export function isBreadcrumb(b: Block): boolean {
  if (b.links === 0 || b.text.length > MAX_TRAIL_CHARS) return false;
  const steps = b.text.replace(TRAIL_LABEL_RE, '').split(CRUMB_SEP_RE).map((s) => s.trim()).filter((s) => s.length > 0);
  if (steps.length < 2) return false;
  const head = steps.slice(0, -1);
  // A post's header ("by marrowmary » Sat Nov 02, 2024 7:40 pm") ends with its date, a trail with a page.
  return head.every((s) => s.length <= MAX_STEP_CHARS && STEP_RE.test(s)) && !/[。.!?！？]$/.test(b.text) && !isDateline(steps[steps.length - 1]!);
}
