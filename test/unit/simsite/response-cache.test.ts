import { ResponseCache } from '../../../src/simsite/response-cache';
import type { SimResponse } from '../../../src/simsite/http-types';

const res = (body: string): SimResponse => ({ status: 200, headers: {}, body, kind: 'json' });

describe('simsite response cache', () => {
  it('serves a page only while its version and time-to-live hold', () => {
    const c = new ResponseCache(1000);
    c.put('/a', 'v1', 0, res('{"a":1}'));
    expect(c.get('/a', 'v1', 500)?.body.toString()).toBe('{"a":1}');
    expect(c.get('/a', 'v2', 500)).toBeUndefined();
    expect(c.get('/a', 'v1', 1001)).toBeUndefined();
  });

  it('stays under its byte bound by dropping the oldest pages', () => {
    const c = new ResponseCache(1000, 100);
    for (let i = 0; i < 10; i++) c.put(`/p${i}`, 'v', 0, res('x'.repeat(30)));
    expect(c.sizeBytes).toBeLessThanOrEqual(100);
    expect(c.get('/p9', 'v', 0)).toBeDefined();
    expect(c.get('/p0', 'v', 0)).toBeUndefined();
  });
});
