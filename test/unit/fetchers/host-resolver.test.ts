import type { LookupAddress } from 'node:dns';
import { ManualClock } from '../../../src/core/clock';
import { parseCidr } from '../../../src/fetchers/address-class';
import { HostResolver } from '../../../src/fetchers/host-resolver';

function resolver(answers: Record<string, LookupAddress[]>, opts: { allowPrivate?: boolean; maxHosts?: number } = {}) {
  const clock = new ManualClock(0);
  const calls: string[] = [];
  const r = new HostResolver({
    clock,
    ttlMs: 60_000,
    maxHosts: opts.maxHosts ?? 100,
    allowPrivate: opts.allowPrivate ?? false,
    allowedCidrs: [parseCidr('127.0.0.1')!],
    lookupAll: async (host) => {
      calls.push(host);
      return answers[host] ?? [];
    },
  });
  return { r, clock, calls };
}

const pub = (address: string): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 });

describe('HostResolver', () => {
  it('refuses a name if any of its addresses is refused (rebinding with mixed answers)', async () => {
    const { r } = resolver({ 'mixed.example': [pub('93.184.216.34'), pub('10.0.0.5')] });
    await expect(r.resolve('mixed.example', 'http://mixed.example/')).rejects.toMatchObject({ code: 'E_FETCH_BLOCKED_ADDRESS', fields: { address: '10.0.0.5' } });
  });

  it('caches answers (and refusals) until the TTL passes, and shares concurrent lookups', async () => {
    const { r, clock, calls } = resolver({ 'a.example': [pub('93.184.216.34')], 'bad.example': [pub('192.168.0.1')] });
    await Promise.all([r.resolve('a.example', 'u'), r.resolve('a.example', 'u'), r.resolve('A.example', 'u')]);
    await expect(r.resolve('bad.example', 'u')).rejects.toThrow();
    await expect(r.resolve('bad.example', 'u')).rejects.toThrow();
    expect(calls).toEqual(['a.example', 'bad.example']);
    clock.advanceMs(60_001);
    await r.resolve('a.example', 'u');
    expect(calls).toEqual(['a.example', 'bad.example', 'a.example']);
  });

  it('bounds the cache by evicting the oldest host', async () => {
    const { r, calls } = resolver({ a: [pub('1.1.1.1')], b: [pub('1.0.0.1')], c: [pub('8.8.8.8')] }, { maxHosts: 2 });
    for (const h of ['a', 'b', 'c', 'a']) await r.resolve(h, 'u');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('checks literal addresses without DNS and honours allowed ranges', async () => {
    const { r, calls } = resolver({});
    await expect(r.resolve('127.0.0.1', 'u')).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(r.resolve('[::1]', 'u')).rejects.toMatchObject({ code: 'E_FETCH_BLOCKED_ADDRESS', fields: { address_class: 'loopback' } });
    expect(calls).toEqual([]);
  });

  it('answers net.connect lookups in both single and all forms, filtered by family', async () => {
    const { r } = resolver({ dual: [pub('93.184.216.34'), pub('2606:4700::1111')] });
    const single = await new Promise<unknown[]>((resolve) => r.netLookup('dual', { family: 6 }, (...args) => resolve(args)));
    expect(single).toEqual([null, '2606:4700::1111', 6]);
    const all = await new Promise<unknown[]>((resolve) => r.netLookup('dual', { all: true }, (...args) => resolve(args)));
    expect(all).toEqual([null, [pub('93.184.216.34'), pub('2606:4700::1111')]]);
  });

  it('hands the connector the refusal when a cached answer turned private (no connect happens)', async () => {
    const { r } = resolver({ evil: [pub('169.254.169.254')] });
    const [err] = await new Promise<unknown[]>((resolve) => r.netLookup('evil', { all: true }, (...args) => resolve(args)));
    expect(err).toMatchObject({ code: 'E_FETCH_BLOCKED_ADDRESS' });
  });
});
