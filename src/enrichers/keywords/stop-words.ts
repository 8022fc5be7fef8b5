/**
 * Words that jieba's IDF table rates highly but that say nothing about a post's topic on a
 * microblog: platform boilerplate, fillers, pronouns, and English function words.
 */
export const DEFAULT_STOP_WORDS: readonly string[] = [
  // platform boilerplate
  '转发', '微博', '转发微博', '回复', '网页链接', '全文', '展开', '收起', '视频', '图片', '链接', '评论', '秒拍', '分享', '显示地图',
  // fillers and pronouns
  '我们', '你们', '他们', '她们', '自己', '什么', '这个', '那个', '这样', '那样', '一个', '没有', '就是', '还是', '真的', '今天', '现在',
  '时候', '已经', '可以', '觉得', '知道', '因为', '所以', '但是', '然后', '如果', '还有', '一下', '一起', '大家', '这么', '那么', '怎么',
  '哈哈', '哈哈哈', '呵呵', '嘻嘻', '啊啊啊', '一定', '不是', '不会', '不要', '出来', '起来', '东西', '事情', '感觉', '有点',
  // English function words and tweet boilerplate
  'the', 'a', 'an', 'and', 'or', 'but', 'of', 'to', 'in', 'on', 'for', 'with', 'at', 'by', 'from', 'is', 'are', 'was', 'were', 'be',
  'been', 'it', 'its', 'this', 'that', 'these', 'those', 'i', 'you', 'he', 'she', 'we', 'they', 'me', 'my', 'your', 'our', 'their',
  'his', 'her', 'not', 'no', 'so', 'if', 'just', 'do', 'does', 'did', 'have', 'has', 'had', 'will', 'would', 'can', 'could', 'all',
  'rt', 'user', 'amp', 'http', 'https', 'via', 'im', 'dont', 'get', 'got', 'one', 'about', 'out', 'up', 'what', 'when', 'more',
];
