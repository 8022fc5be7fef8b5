/**
 * Word lists and sentence templates. Each template carries its sentiment so that the label of a
 * generated post is known by construction. Slots: {topic} {thing} {place} {time} {food} {name}.
 */

export type Sentiment = 'positive' | 'negative' | 'neutral';
export type Lang = 'zh' | 'en';

export const ZH_TEMPLATES: Record<Sentiment, readonly string[]> = {
  positive: [
    '今天{place}的天气太好了，心情美美哒',
    '终于吃到了心心念念的{food}，太幸福了！',
    '{thing}真的超级好用，强烈推荐给大家',
    '周末和朋友去了{place}，玩得特别开心',
    '感谢大家的支持，我们一定会越来越好',
    '{time}的演唱会太震撼了，感动到哭',
    '新买的{thing}到了，质量比想象中好很多',
    '恭喜{name}拿到冠军，实至名归！',
    '这部电影真的太好看了，二刷也不腻',
    '努力终于有了回报，今天收到了录取通知',
    '{place}的夜景美哭了，下次还要再来',
    '今天被同事夸了，开心一整天',
    '这家店的{food}绝了，老板人也超好',
    '阳光正好，微风不燥，一切都刚刚好',
    '孩子今天第一次叫爸爸，幸福感爆棚',
  ],
  negative: [
    '{place}又堵车了，上班迟到真的好烦',
    '买的{thing}用了两天就坏了，太失望了',
    '客服态度极差，再也不会买这家的东西了',
    '{time}加班到半夜，累到不想说话',
    '外卖送了两个小时，{food}都凉透了，气死',
    '航班又延误了，在{place}机场等了五个小时',
    '房租又涨了，打工人真的太难了',
    '这剧情太烂了，浪费我两个小时',
    '手机屏幕摔碎了，心痛到无法呼吸',
    '排队一个小时结果卖完了，白跑一趟',
    '感冒发烧还要上班，太惨了',
    '被骗了三百块，大家千万要小心',
    '{name}的回应让人很失望，根本没有诚意',
    '下了一整天的雨，心情低落到极点',
    '快递丢了，平台互相推诿，无语',
  ],
  neutral: [
    '{place}明天有小雨，出门记得带伞',
    '今天开始整理{thing}的使用笔记',
    '{time}有人一起去{place}吗',
    '转发一下，{place}地铁三号线今晚延长运营',
    '刚看完{name}的采访，信息量有点大',
    '周三下午两点开会，地点在三楼会议室',
    '记录一下：今天走了八千步',
    '{food}和{food}，你们选哪个？',
    '{place}图书馆本周六闭馆维护',
    '有没有人知道{thing}怎么设置',
    '今天是{time}，大家都在做什么',
    '新版本更新了，界面有些变化',
    '分享一个{place}的公交路线',
    '明天早上七点出发去{place}',
    '整理了一份{thing}的参数对比',
  ],
};

export const EN_TEMPLATES: Record<Sentiment, readonly string[]> = {
  positive: [
    'What a beautiful day in {place}, loving it',
    'Finally tried the {food} everyone talks about. Amazing!',
    'The new {thing} is fantastic, highly recommend it',
    'Congrats to {name} on the win, well deserved',
    'Best concert ever {time}, still smiling',
    'So grateful for all the support, thank you all',
    'Great weekend with friends in {place}',
    'Just got the job offer, so happy right now',
  ],
  negative: [
    'Stuck in traffic in {place} again, this is awful',
    'My {thing} broke after two days, really disappointed',
    'Worst customer service ever, never buying again',
    'Flight delayed five hours at {place}, terrible',
    'Working late {time} again, completely exhausted',
    'The {food} was cold and overpriced, what a waste',
    'Rent went up again, so frustrating',
    'That ending was horrible, I hated it',
  ],
  neutral: [
    'Rain expected in {place} tomorrow, bring an umbrella',
    'Meeting moved to Wednesday at 2pm',
    'Does anyone know how to reset the {thing}?',
    'The {place} library is closed this Saturday',
    'Reading the {thing} manual this evening',
    'Heading to {place} early tomorrow morning',
    'New version released today, the menu layout changed',
    'Sharing the bus route to {place}',
  ],
};

export const ZH_FILLERS: readonly string[] = [
  '说起来，这件事让我想起了很多以前的事情，那时候大家都还年轻，每天一起上学放学，一起讨论未来想做什么。',
  '详细说一下经过：早上八点出门，先坐地铁再换公交，路上人特别多，到了之后又排了很久的队，中间还发生了不少小插曲。',
  '顺便记录一下最近的生活，工作比较忙，但是每天都会抽时间运动半小时，读几页书，感觉整个人状态都好了很多。',
  '很多朋友私信问我具体情况，这里统一回复一下，具体的细节可以看下面的说明，有问题欢迎在评论区留言讨论。',
];

export const EN_FILLERS: readonly string[] = [
  'A longer story: we left early in the morning, changed trains twice, waited in a long queue and met a few old friends on the way.',
  'Some context for everyone who asked in private messages: the details are below, and feel free to ask more in the comments.',
];

export const ZH_TOPICS: readonly string[] = [
  '今日份快乐', '打工人日常', '美食分享', '周末去哪儿', '旅行日记', '读书打卡', '健身打卡', '萌宠日常',
  '电影推荐', '数码测评', '天气预报', '城市生活', '追剧', '考研', '新能源汽车', '世界杯',
];
export const EN_TOPICS: readonly string[] = ['travel', 'foodie', 'tech', 'weekend', 'fitness', 'movies', 'music', 'books'];

export const ZH_PLACES: readonly string[] = ['北京', '上海', '杭州', '成都', '广州', '深圳', '西安', '南京', '武汉', '重庆', '厦门', '青岛'];
export const EN_PLACES: readonly string[] = ['London', 'Singapore', 'Sydney', 'Toronto', 'Berlin', 'Seattle', 'Tokyo', 'Paris'];
export const ZH_THINGS: readonly string[] = ['扫地机器人', '降噪耳机', '电动牙刷', '咖啡机', '平板电脑', '运动手表', '空气炸锅', '机械键盘'];
export const EN_THINGS: readonly string[] = ['headphones', 'coffee machine', 'laptop', 'smart watch', 'camera', 'e-reader'];
export const ZH_FOODS: readonly string[] = ['火锅', '小龙虾', '烤鸭', '螺蛳粉', '奶茶', '煎饼果子', '肠粉', '牛肉面'];
export const EN_FOODS: readonly string[] = ['ramen', 'pizza', 'tacos', 'dumplings', 'croissant', 'bubble tea'];
export const ZH_TIMES: readonly string[] = ['今天', '昨晚', '周末', '周五晚上', '国庆', '元旦', '春节'];
export const EN_TIMES: readonly string[] = ['tonight', 'last night', 'this weekend', 'on Friday'];

/** Emoticon codes as the site writes them (the alt text of an img), by the sentiment they express. */
export const EMOTICONS: Record<Sentiment, readonly { code: string; file: string }[]> = {
  positive: [
    { code: '[哈哈]', file: 'd_haha' }, { code: '[赞]', file: 'd_zan' }, { code: '[爱你]', file: 'd_aini' },
    { code: '[送花花]', file: 'd_songhuahua' }, { code: '[开心]', file: 'd_kaixin' }, { code: '[鼓掌]', file: 'd_guzhang' },
  ],
  negative: [
    { code: '[怒]', file: 'd_nu' }, { code: '[泪]', file: 'd_lei' }, { code: '[悲伤]', file: 'd_beishang' },
    { code: '[抓狂]', file: 'd_zhuakuang' }, { code: '[生病]', file: 'd_shengbing' }, { code: '[失望]', file: 'd_shiwang' },
  ],
  neutral: [
    { code: '[思考]', file: 'd_sikao' }, { code: '[doge]', file: 'd_doge' }, { code: '[吃瓜]', file: 'd_chigua' },
    { code: '[允悲]', file: 'd_yunbei' },
  ],
};

export const ZH_SURNAMES: readonly string[] = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '林'];
export const ZH_GIVEN: readonly string[] = [
  '小明', '晓雨', '子涵', '一鸣', '思远', '佳怡', '浩然', '雨桐', '梓萱', '俊杰', '欣怡', '宇轩', '诗琪', '明轩', '若曦', '天佑',
];
export const ZH_NICK_PARTS: readonly string[] = [
  '爱吃', '不会', '快乐的', '认真', '摸鱼', '深夜', '元气', '佛系', '努力', '路过的',
];
export const ZH_NICK_TAILS: readonly string[] = [
  '小猫', '橘子', '土豆', '码农', '旅人', '咸鱼', '星星', '熊猫', '书虫', '胖虎', '兔子', '面包',
];
export const EN_HANDLES: readonly string[] = ['sunny', 'pixel', 'nomad', 'maple', 'echo', 'river', 'atlas', 'coder', 'luna', 'kiwi'];

export const DESCRIPTIONS: readonly string[] = [
  '一只喜欢默默表演的小透明', '热爱生活，热爱美食', '摄影爱好者 | 旅行中', '程序员，偶尔写点东西',
  '每天进步一点点', '', '', '商务合作请私信', 'Coffee, code and cats', '记录生活的点滴', '读书、跑步、发呆',
];

export const LOCATIONS: readonly { province: string; city: string }[] = [
  { province: '北京', city: '海淀区' }, { province: '上海', city: '浦东新区' }, { province: '浙江', city: '杭州' },
  { province: '四川', city: '成都' }, { province: '广东', city: '广州' }, { province: '广东', city: '深圳' },
  { province: '陕西', city: '西安' }, { province: '江苏', city: '南京' }, { province: '湖北', city: '武汉' },
  { province: '重庆', city: '渝中区' }, { province: '福建', city: '厦门' }, { province: '山东', city: '青岛' },
  { province: '海外', city: '美国' },
];

export const SOURCES: readonly string[] = ['', '', '', 'iPhone 15', '荣耀8X', '微博手机版', '微博 weibo.com', 'HUAWEI Mate 60', '小米14', 'OPPO Reno'];

export const VERIFIED_REASONS: readonly string[] = ['知名博主', '美食博主', '数码博主', '旅游博主', '某某科技有限公司', '知名演员'];
