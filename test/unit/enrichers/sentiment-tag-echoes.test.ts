import { FeatureExtractor } from '../../../src/enrichers/sentiment/features';
import { withoutTagEchoes } from '../../../src/enrichers/sentiment/tag-echoes';

describe('withoutTagEchoes', () => {
  it('leaves out the tags and the runs of three characters or more of a tag repeated in the text', () => {
    expect(withoutTagEchoes('#城市图书馆新馆#图书馆新馆，这剧情太烂了')).toBe('  ，这剧情太烂了');
    // The longest piece first: 图书馆新馆 is one run, not 图书馆 and 新馆.
    expect(withoutTagEchoes('#城市图书馆新馆# 新馆图书馆新馆开门')).toBe('  新馆 开门');
  });

  it('keeps pieces of two characters: ordinary words, and opinion words that spread with a topic', () => {
    expect(withoutTagEchoes('#太失望了# 失望，真失望')).toBe('  失望，真失望');
    expect(withoutTagEchoes('#太失望了# 太失望了吧', 3)).toBe('   吧');
  });

  it('reads every tag of the post, and leaves text without tags alone', () => {
    expect(withoutTagEchoes('#外卖平台新规##城南地铁三号线# 平台新规和三号线')).toBe('    和 ');
    expect(withoutTagEchoes('图书馆新馆开门了')).toBe('图书馆新馆开门了');
    expect(withoutTagEchoes('#未闭合 图书馆')).toBe('#未闭合 图书馆');
  });
});

describe('FeatureExtractor with noTagEchoes', () => {
  const set = (fx: FeatureExtractor, t: string): number[] => Array.from(fx.extract(t, 'zh')).sort((a, b) => a - b);

  it('extracts from the text less the tags and their echoes', () => {
    const echoes = new FeatureExtractor(undefined, { noTags: true, noTagEchoes: true });
    expect(set(echoes, '#城市图书馆新馆#图书馆新馆，这剧情太烂了')).toEqual(set(echoes, '  ，这剧情太烂了'));
    // Without the option the echo is read as before (models trained without it keep their features).
    const tagsOnly = new FeatureExtractor(undefined, { noTags: true });
    expect(set(tagsOnly, '#城市图书馆新馆#图书馆新馆，这剧情太烂了')).toEqual(set(tagsOnly, ' 图书馆新馆，这剧情太烂了'));
    expect(set(tagsOnly, '#城市图书馆新馆#图书馆新馆，这剧情太烂了')).not.toEqual(set(echoes, '#城市图书馆新馆#图书馆新馆，这剧情太烂了'));
  });
});
