/**
 * What the microblog shows in place of a post that is gone, read from its text (spec §1.2, the
 * captures in test/fixtures/weibo-real): the author deleted it, the platform removed it, or its
 * author restricted who may see it. Pure; shared by the timeline reader (a deleted stub in a list
 * is no post to index) and the single-post check of the tombstone logic.
 */
export type GoneStatus = 'deleted' | 'removed' | 'restricted' | 'account_gone';

// Platform removals name a reason (complaints, rules, laws); plain "已被删除" is the author's (or unknown: counted as deleted).
const ACCOUNT_GONE = /(该账号.{0,40}(?:无法查看|已注销|已被封)|用户不存在|账号已注销|此用户已注销)/;
const REMOVED = /(因被投诉|违反|不适宜公开|相关法律法规|已被屏蔽)/;
const DELETED = /(此微博已被(?:作者)?删除|该微博已被删除|微博不存在|已被作者删除|原微博已删除|内容已删除)/;
const RESTRICTED = /(半年可见|仅自己可见|只有作者本人可见|暂无查看权限|由于博主设置|博主已设置|仅(?:好友|粉丝)可见|该微博仅对|你暂时没有这条微博的查看权限)/;

/** The gone-status a stub text announces, or undefined for ordinary text. */
export function goneStatusOfText(text: unknown): GoneStatus | undefined {
  if (typeof text !== 'string' || text.length > 400) return undefined; // a real post may quote the phrases at length
  if (ACCOUNT_GONE.test(text)) return 'account_gone';
  if (RESTRICTED.test(text)) return 'restricted';
  if (REMOVED.test(text)) return 'removed';
  if (DELETED.test(text)) return 'deleted';
  return undefined;
}

/** The parts of a post object that mark it as a stub. */
export interface StubFields {
  text?: unknown;
  deleted?: unknown;
  state?: unknown;
  user?: unknown;
}

/**
 * Whether a post object in a list is a stub for a gone post rather than a post: the site flags it
 * (`deleted: "1"`) or sends no author with a gone-text. A post with an author and ordinary text
 * is never a stub, whatever words it quotes.
 */
export function stubStatus(m: StubFields): GoneStatus | undefined {
  const byText = goneStatusOfText(m.text);
  if (m.deleted === '1' || m.deleted === 1 || m.deleted === true) return byText ?? 'deleted';
  if ((m.user === null || m.user === undefined) && byText) return byText;
  return undefined;
}
