import { errorFromStatus, errorFromThrown, redactUrl, statusClass } from '../../../src/fetchers/fetch-errors';

const NOW = Date.parse('2024-01-01T00:00:00Z');

describe('fetch error mapping', () => {
  it.each([
    [429, undefined, 'E_FETCH_THROTTLED', 'throttled', undefined],
    [429, '7', 'E_FETCH_THROTTLED', 'throttled', 7000],
    [418, undefined, 'E_FETCH_THROTTLED', 'throttled', undefined],
    [503, 'Mon, 01 Jan 2024 00:00:30 GMT', 'E_FETCH_THROTTLED', 'throttled', 30_000],
    [503, undefined, 'E_FETCH_HTTP_STATUS', 'retryable', undefined],
    [503, 'garbage', 'E_FETCH_HTTP_STATUS', 'retryable', undefined],
    [500, undefined, 'E_FETCH_HTTP_STATUS', 'retryable', undefined],
    [408, undefined, 'E_FETCH_HTTP_STATUS', 'retryable', undefined],
    [501, undefined, 'E_FETCH_HTTP_STATUS', 'non_retryable', undefined],
    [404, undefined, 'E_FETCH_HTTP_STATUS', 'non_retryable', undefined],
    [403, '5', 'E_FETCH_HTTP_STATUS', 'non_retryable', undefined],
  ])('HTTP %s (Retry-After %s) → %s / %s', (status, retryAfter, code, kind, retryAfterMs) => {
    const err = errorFromStatus(status, retryAfter, 'http://e.com/x', NOW);
    expect(err).toMatchObject({ code, kind, retryAfterMs, fields: { status, url: 'http://e.com/x' } });
  });

  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'E_FETCH_TIMEOUT', 'retryable'],
    ['UND_ERR_HEADERS_TIMEOUT', 'E_FETCH_TIMEOUT', 'retryable'],
    ['UND_ERR_BODY_TIMEOUT', 'E_FETCH_TIMEOUT', 'retryable'],
    ['ECONNRESET', 'E_FETCH_CONNECTION', 'retryable'],
    ['ECONNREFUSED', 'E_FETCH_CONNECTION', 'retryable'],
    ['UND_ERR_SOCKET', 'E_FETCH_CONNECTION', 'retryable'],
    ['HPE_INVALID_CONSTANT', 'E_FETCH_CONNECTION', 'retryable'],
    ['UND_ERR_HEADERS_OVERFLOW', 'E_FETCH_HEADERS_TOO_LARGE', 'non_retryable'],
    ['ENOTFOUND', 'E_FETCH_DNS', 'non_retryable'],
    ['EAI_AGAIN', 'E_FETCH_DNS', 'retryable'],
  ])('%s → %s / %s', (cause, code, kind) => {
    const err = errorFromThrown(Object.assign(new Error('boom'), { code: cause }), 'http://e.com/');
    expect(err).toMatchObject({ code, kind, fields: { cause_code: cause } });
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('maps status codes to bounded metric labels', () => {
    expect([0, 101, 200, 304, 404, 503, 999].map(statusClass)).toEqual(['none', '1xx', '2xx', '3xx', '4xx', '5xx', 'none']);
  });

  it.each([
    ['https://api.example.com/2/statuses?access_token=abc123&count=20', 'https://api.example.com/2/statuses?access_token=[redacted]&count=20'],
    ['https://e.com/x?a=1&api_key=K&sig=S#f', 'https://e.com/x?a=1&api_key=[redacted]&sig=[redacted]#f'],
    ['https://user:pass@e.com/x', 'https://[redacted]@e.com/x'],
    ['https://e.com/monkey?keyword=ok', 'https://e.com/monkey?keyword=ok'],
    ['https://e.com/plain', 'https://e.com/plain'],
  ])('redacts %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
