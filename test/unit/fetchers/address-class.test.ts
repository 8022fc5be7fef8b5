import { cidrContains, classifyAddress, isAddressAllowed, parseCidr, parseIp } from '../../../src/fetchers/address-class';

describe('address classification (SSRF guard)', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2606:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fd00:ec2::254', 'private'], // AWS IPv6 metadata
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'], // NAT64
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
    ['not-an-ip', 'invalid'],
    ['1.2.3', 'invalid'],
    ['256.1.1.1', 'invalid'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it('parses IPv6 with :: in any position', () => {
    expect(Array.from(parseIp('1::')!)).toEqual([0, 1, ...new Array(14).fill(0)]);
    expect(Array.from(parseIp('::ffff:1.2.3.4')!.subarray(10))).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(Array.from(parseIp('1:2:3:4:5:6:7:8')!)).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
  });

  it('matches CIDR prefixes on non-byte boundaries and never across families', () => {
    const cgnat = parseCidr('100.64.0.0/10')!;
    expect(cidrContains(cgnat, parseIp('100.127.0.1')!)).toBe(true);
    expect(cidrContains(cgnat, parseIp('100.128.0.1')!)).toBe(false);
    expect(cidrContains(parseCidr('0.0.0.0/0')!, parseIp('::1')!)).toBe(false);
    expect(parseCidr('10.0.0.0/33')).toBeUndefined();
    expect(parseCidr('nonsense/8')).toBeUndefined();
  });

  it('allows public addresses, and others only when opted in wholesale or by range', () => {
    const only = [parseCidr('127.0.0.1/32')!];
    expect(isAddressAllowed('8.8.8.8', false, [])).toBe(true);
    expect(isAddressAllowed('127.0.0.1', false, [])).toBe(false);
    expect(isAddressAllowed('127.0.0.1', false, only)).toBe(true);
    expect(isAddressAllowed('127.0.0.2', false, only)).toBe(false);
    expect(isAddressAllowed('10.0.0.1', true, [])).toBe(true);
    expect(isAddressAllowed('garbage', true, [])).toBe(false);
  });

  it('lets an allowed IPv4 range allow the IPv4-mapped IPv6 spelling of its addresses, and back', () => {
    const only = [parseCidr('127.0.0.1/32')!];
    expect(isAddressAllowed('::ffff:127.0.0.1', false, only)).toBe(true);
    expect(isAddressAllowed('[::ffff:127.0.0.1]', false, only)).toBe(true);
    expect(isAddressAllowed('::ffff:7f00:1', false, only)).toBe(true);
    expect(isAddressAllowed('::ffff:127.0.0.2', false, only)).toBe(false);
    expect(isAddressAllowed('64:ff9b::7f00:1', false, only)).toBe(false); // NAT64: another host
    expect(isAddressAllowed('::127.0.0.1', false, only)).toBe(false); // IPv4-compatible: not the same socket address
    expect(isAddressAllowed('127.0.0.1', false, [parseCidr('::ffff:127.0.0.0/104')!])).toBe(true);
    expect(isAddressAllowed('::ffff:10.0.0.1', false, only)).toBe(false);
  });
});
