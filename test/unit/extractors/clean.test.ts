import { parseHtml, type DomElement } from '../../../src/extractors/dom';
import { isDropped, isHiddenByClass } from '../../../src/extractors/clean';
import { extract } from '../../../src/extractors/text-density';

/**
 * Invision Community's post shape (WCXB dev, tune part): each post carries a share menu that a
 * click opens, hidden by the framework's camel-case utility class `ipsHide`.
 */
function post(i: number): string {
  return `<article class="cPost ipsBox ipsComment" id="elComment_${i}"><aside class="ipsComment_author cAuthorPane"><h3 class="cAuthorPane_author"><a href="/profile/${i}">member${i}</a></h3></aside>
    <div class="ipsColumn ipsColumn_fluid"><div class="ipsComment_meta"><time datetime="2025-08-26T10:0${i}:00Z">August 26</time></div>
    <div class="cPost_contentWrap"><div data-role="commentContent" class="ipsType_normal ipsType_richText ipsContained"><p>Reply ${i}: for travel I would take the smaller body and one fast prime, a 35 or a 50, and leave the zoom at home; the weight adds up over a day of walking.</p></div></div>
    <div class="ipsPadding ipsHide cPostShareMenu" id="elSharePost_${i}_menu"><h5 class="ipsType_normal ipsType_reset">Link to post</h5>
    <input type="text" value="https://forum.example.com/topic/1/?comment=${i}"><h5 class="ipsType_normal ipsType_reset ipsSpacer_top">Share on other sites</h5>
    <ul class="ipsList_inline"><li><a href="https://x.com/share?u=${i}" class="cShareLink">X</a></li></ul></div></div></article>`;
}

describe('hidden by class words (clean.ts)', () => {
  it('reads a framework\'s camel-case hide class (ipsHide) as hidden, not a longer name that holds the word', () => {
    const el = (cls: string): DomElement => parseHtml(`<div class="${cls}">x</div>`).children[0] as DomElement;
    expect(isHiddenByClass(el('ipsPadding ipsHide cPostShareMenu'))).toBe(true);
    expect(isHiddenByClass(el('hidden'))).toBe(true);
    expect(isHiddenByClass(el('showHiddenComments'))).toBe(false);
    expect(isHiddenByClass(el('ipsPadding'))).toBe(false);
  });

  it("reads XenForo's screen-reader class (u-srOnly) as hidden", () => {
    const el = (cls: string): DomElement => parseHtml(`<span class="${cls}">Thread starter</span>`).children[0] as DomElement;
    expect(isHiddenByClass(el('u-srOnly'))).toBe(true);
    expect(isHiddenByClass(el('u-srOnlyNot'))).toBe(false);
  });

  it('leaves a post\'s hidden share menu out of a thread', () => {
    const html = `<html><head><title>Best camera for travel</title></head><body><h1>Best camera for travel</h1>
      <div class="cTopic ipsClear">${Array.from({ length: 5 }, (_, i) => post(i + 1)).join('')}</div></body></html>`;
    const page = extract(html, { url: 'https://forum.example.com/topic/423897-best-camera-for-travel/' });
    expect(page.text).toContain('Reply 5: for travel');
    expect(page.text).not.toContain('Link to post');
    expect(page.text).not.toContain('Share on other sites');
  });
});

describe('a letter its tooltip spells out (clean.ts)', () => {
  const reply = (user: string, i: number): string => `<div class="x1"><div class="x2"><a href="/user/${user.toLowerCase()}"><img title="${user}" src="/a/${i}.png" onerror="this.remove()"><span title="${user}" style="background-color: #e91e63;">${user[0]}</span></a>
    <a href="/user/${user.toLowerCase()}">${user}</a></div><div class="x3"><p>Reply ${i}: the saved route shows up once the layer is switched on in the menu, and it keeps its colour after a reload as well.</p></div>
    <div class="x4"><span title="${user}" style="background-color: #e91e63;">${user[0]}</span> Offline</div></div>`;

  it("leaves a letter avatar out of the poster's status line", () => {
    const html = `<html><head><title>Display a saved route</title></head><body><h1>Display a saved route</h1>
      ${['JonB', 'Luizjr', 'Ivo', 'Kent'].map(reply).join('')}</body></html>`;
    const page = extract(html, { url: 'https://community.example.com/topic/43227/display-a-saved-route' });
    expect(page.text).toContain('Reply 3: the saved route');
    expect(page.text).not.toMatch(/\b[JLIK] Offline/);
  });

  it('keeps a letter whose tooltip spells another word, or a longer text', () => {
    const el = (html: string): DomElement => parseHtml(html).children[0] as DomElement;
    expect(isDropped(el('<span title="submitter">S</span>'))).toBe(true);
    expect(isDropped(el('<span title="Vitamin">C</span>'))).toBe(false);
    expect(isDropped(el('<span title="JonB">Jo</span>'))).toBe(false);
    expect(isDropped(el('<span title="J">J</span>'))).toBe(false);
  });
});
