import { extract } from '../../../src/extractors/text-density';

const caption = 'U.S. Defense Secretary Mark Esper, left, and Vietnamese Defense Minister Ngo Xuan Lich shake hands in Hanoi, Vietnam Wednesday. Esper is on a visit to strengthen military relations.';
const story = [
  'HANOI, Vietnam (AP) — U.S. Defense Secretary Mark Esper on Wednesday accused China of using coercion and intimidation against smaller Asian nations.',
  'We will not accept attempts to assert unlawful maritime claims at the expense of law-abiding nations, Esper said in a speech to the diplomatic academy.',
  'He said the United States would provide Vietnam with a third coast guard cutter to help it patrol waters that China also claims as its own territory.',
  'The visit follows a series of meetings between the two defence ministers over the past year on maritime security, training and the legacy of the war.',
].map((p) => `<p>${p}</p>`).join('\n');

// A lead gallery whose classes name nothing: the slide prints the caption in full and cut short, the lightbox once more.
const gallery = `<div class="x1"><ul class="x2"><li class="x3"><img src="/p/1.jpg" alt="${caption} Photo: AP">
<div class="x4"><div class="x5">${caption}<a> less</a></div><div class="x6">${caption.slice(0, 120)}<a> ... more</a></div></div></li></ul>
<div class="x7"><div class="x5">${caption}</div></div></div>`;

const page = (top: string): string => `<!doctype html><html lang="en"><head><title>Esper says US providing Vietnam with coast guard ship</title></head><body>
<div class="x8"><h1>Esper says US providing Vietnam with coast guard ship</h1>${top}<div class="x9">${story}</div></div></body></html>`;

describe('dropAltCaptions: a gallery caption told by the alt text that holds it', () => {
  it('leaves out a long caption an image alt holds, printed twice or cut short', () => {
    const text = extract(page(gallery)).text;
    expect(text).toContain('third coast guard cutter');
    expect(text).not.toContain('shake hands');
  });

  it('keeps a sentence printed once that an alt text happens to hold', () => {
    const once = `<img src="/p/1.jpg" alt="${caption}"><p>${caption}</p>`;
    expect(extract(page(once)).text).toContain('shake hands');
  });
});
