import { parseHtml } from '../../../src/extractors/dom';
import { toBlocks } from '../../../src/extractors/blocks';
import { extract } from '../../../src/extractors/text-density';

const PARA = '台股今日開高走低，終場下跌32點，成交量僅有新台幣620億元，市場觀望氣氛濃厚，外資賣超金額擴大至45億元。';

describe('labels of radio buttons and check boxes (choice-labels.ts)', () => {
  it("leaves a story's mood poll out of the text", () => {
    // The poll's radio buttons sit beside their labels, in a list, with no <form> around them.
    const poll = ['實用', '期待', '激動', '難過'].map((w, i) => `<li><label for="md0${i}"><img src="/ico${i}.gif" /><br />${w}</label>`
      + `<input name="rdeclare" type="radio" value="${i}" id="md0${i}"/></li>`).join('');
    const html = `<html><body><div class="article"><p>${PARA}</p><p>${PARA}</p><p>${PARA}</p>`
      + `<div class="moodCounter"><span>這篇新聞讓您覺得？</span><ul>${poll}</ul></div></div></body></html>`;
    const page = extract(html);
    for (const w of ['實用', '期待', '激動', '難過']) expect(page.paragraphs).not.toContain(w);
    expect(page.text).toContain('台股今日開高走低');
  });

  it('drops the label of a check box but keeps the caption of a text field', () => {
    const lines = toBlocks(parseHtml('<div><label><input type="checkbox"> Blue</label></div><div><label for="q">Search the archive</label><input type="text" id="q"></div>'))
      .map((b) => b.text);
    expect(lines).toEqual(['Search the archive']);
  });
});
