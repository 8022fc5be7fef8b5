import { extract } from '../../../src/extractors/text-density';

const caption = 'A man rides on a donkey in the village of Kifl Hares opposite the settlement of Revava on November 19, 2019, as the announcement drew protests across the region.';
const story = [
  'Countries around the world criticised the announcement on Tuesday, saying it breaks with decades of settled international law.',
  'The European Union said its position was clear and unchanged, and that all settlement activity is illegal under international law.',
  'Officials in the region called the decision a threat to peace and said they would take the matter to the United Nations.',
  'Supporters of the move welcomed it as a correction of what they called a long-standing historical mistake by earlier governments.',
].map((p) => `<p>${p}</p>`).join('\n');

const page = (figure: string): string => `<!doctype html><html lang="en"><head><title>World community lashes out at the announcement</title></head><body>
<div class="x8"><h1>World community lashes out at the announcement</h1>${figure}<div class="x9">${story}</div></div></body></html>`;

describe('isFigureCaption: a long caption told by the box it shares with its image', () => {
  it('leaves out a long line that repeats the alt text as the one text of the image\'s box', () => {
    // Classes that name nothing: only the shape (an image and its alt text again, alone in one box) tells the caption.
    const figure = `<div class="x1"><div class="x2"><img src="/p/1.jpg" alt="${caption}"><div class="x3">${caption}</div></div></div>`;
    const text = extract(page(figure)).text;
    expect(text).toContain('European Union said its position');
    expect(text).not.toContain('rides on a donkey');
  });

  it('keeps such a line when it stands in the story\'s own flow beside the image', () => {
    const inFlow = `<div class="x9"><img src="/p/1.jpg" alt="${caption}"><p>${caption}</p>${story}</div>`;
    expect(extract(page(inFlow)).text).toContain('rides on a donkey');
  });
});
