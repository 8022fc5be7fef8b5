import { addSaving, conditionalHeaders, MAX_ETAG_CHARS, packValidators, unpackValidators, validatorsOf } from '../../../src/fetchers/conditional-get';

const NOW = Date.UTC(2026, 10, 21, 12);

describe('conditional GET validators', () => {
  it('keeps a quoted (or weak) ETag and Last-Modified in whole seconds', () => {
    expect(validatorsOf({ etag: '"5f1e-abc"', 'last-modified': 'Sat, 21 Nov 2026 08:00:00 GMT' }, NOW)).toEqual({ etag: '"5f1e-abc"', lastModifiedSecs: Date.UTC(2026, 10, 21, 8) / 1000 });
    expect(validatorsOf({ etag: 'W/"t1-p2"' }, NOW)).toEqual({ etag: 'W/"t1-p2"' });
    // Arrays (repeated headers) take the first value.
    expect(validatorsOf({ etag: ['"a"', '"b"'] }, NOW)).toEqual({ etag: '"a"' });
  });

  it('drops what would mislead: unquoted or oversized tags, unparsable or future Last-Modified', () => {
    expect(validatorsOf({ etag: 'abc' }, NOW)).toBeUndefined();
    expect(validatorsOf({ etag: `"${'x'.repeat(MAX_ETAG_CHARS)}"` }, NOW)).toBeUndefined();
    expect(validatorsOf({ 'last-modified': 'yesterday' }, NOW)).toBeUndefined();
    expect(validatorsOf({ 'last-modified': 'Sun, 22 Nov 2026 08:00:00 GMT' }, NOW)).toBeUndefined();
    expect(validatorsOf({}, NOW)).toBeUndefined();
  });

  it('asks with If-None-Match and If-Modified-Since', () => {
    expect(conditionalHeaders({ etag: '"v2"', lastModifiedSecs: Date.UTC(2026, 10, 21, 8) / 1000 })).toEqual({ 'if-none-match': '"v2"', 'if-modified-since': 'Sat, 21 Nov 2026 08:00:00 GMT' });
    expect(conditionalHeaders(undefined)).toEqual({});
  });

  it('packs into one short string and back, any ETag character included', () => {
    for (const v of [{ etag: 'W/"a|b"', lastModifiedSecs: 1_795_000_000 }, { etag: '"a|b"' }, { etag: 'W/""' }, { lastModifiedSecs: 1 }, { etag: '"ünï|cödé"' }]) expect(unpackValidators(packValidators(v))).toEqual(v);
    expect(packValidators({ etag: 'W/"x"', lastModifiedSecs: 1_795_000_000 })).toBe('top2v4|W/"x"');
  });

  it('keeps no Last-Modified beside a strong ETag (If-None-Match alone decides), but beside a weak one', () => {
    expect(packValidators({ etag: '"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_000_000 })).toBe('|"5f3a9c2e-bd41"');
    expect(unpackValidators(packValidators({ etag: '"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_000_000 }))).toEqual({ etag: '"5f3a9c2e-bd41"' });
    expect(conditionalHeaders(unpackValidators(packValidators({ etag: '"t"', lastModifiedSecs: 1_795_000_000 })))).toEqual({ 'if-none-match': '"t"' });
    expect(conditionalHeaders(unpackValidators(packValidators({ etag: 'W/"t"', lastModifiedSecs: 1_795_000_000 })))).toEqual({ 'if-none-match': 'W/"t"', 'if-modified-since': new Date(1_795_000_000_000).toUTCString() });
    expect(packValidators(undefined)).toBe('');
    expect(unpackValidators('')).toBeUndefined();
    expect(unpackValidators('garbage')).toBeUndefined();
  });

  it('counts what a 304 saved', () => {
    expect(addSaving(addSaving({ notModified: 0, bytesSaved: 0 }, 17_000), 3_000)).toEqual({ notModified: 2, bytesSaved: 20_000 });
  });
});
