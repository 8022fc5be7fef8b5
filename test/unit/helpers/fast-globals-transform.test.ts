// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withPrelude } = require('../../helpers/fast-globals-transform.js') as { withPrelude: (code: string) => string };

describe('the jest transform that binds built-ins per module', () => {
  it('keeps "use strict" the first statement, so the module stays strict, and adds no line', () => {
    const code = '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.strict = (function () { return this === undefined; })();';
    const out = withPrelude(code);
    expect(out.startsWith('"use strict";const { Math,')).toBe(true);
    expect(out.split('\n')).toHaveLength(code.split('\n').length);
    // Strict: a plain call's `this` is undefined, as it was before the prelude (sloppy: the global object).
    const exports: { strict?: boolean } = {};
    new Function('exports', out)(exports);
    expect(exports.strict).toBe(true);
    const sloppy: { strict?: boolean } = {};
    new Function('exports', `const x = 1;${out}`)(sloppy);
    expect(sloppy.strict).toBe(false);
  });

  it('binds the same objects the context has, so spies on them still work', () => {
    const out = withPrelude('module.exports = [Math, Number, Float64Array, Map];');
    const mod = { exports: [] as unknown[] };
    new Function('module', out)(mod);
    expect(mod.exports).toEqual([Math, Number, Float64Array, Map]);
    expect(mod.exports[0]).toBe(Math);
  });
});
