import { isIP } from 'node:net';

/**
 * Classification of IP addresses for the SSRF guard. Pure: no DNS, no I/O. Addresses are handled
 * as bytes (4 or 16) so that IPv4, IPv6 and IPv4 embedded in IPv6 share one prefix matcher.
 */
export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link_local'
  | 'unspecified'
  | 'multicast'
  | 'cgnat'
  | 'reserved'
  | 'invalid';

export interface Cidr {
  bytes: Uint8Array;
  prefixBits: number;
}

/** Parses a dotted IPv4 or any textual IPv6 (with `::`, zone id or embedded IPv4) into bytes. */
export function parseIp(text: string): Uint8Array | undefined {
  let ip = text;
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  const family = isIP(ip);
  if (family === 4) return parseV4(ip);
  if (family === 6) return parseV6(ip);
  return undefined;
}

function parseV4(ip: string): Uint8Array {
  const out = new Uint8Array(4);
  const parts = ip.split('.');
  for (let i = 0; i < 4; i++) out[i] = Number(parts[i]);
  return out;
}

function parseV6(ip: string): Uint8Array | undefined {
  const out = new Uint8Array(16);
  let text = ip.toLowerCase();
  let tail: Uint8Array | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) > 0) {
    tail = parseV4(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = new Array<number>(8).fill(0);
  for (let i = 0; i < head.length; i++) groups[i] = parseInt(head[i]!, 16);
  for (let i = 0; i < rest.length; i++) groups[8 - rest.length + i] = parseInt(rest[i]!, 16);
  for (let i = 0; i < 8; i++) {
    const g = groups[i]!;
    if (!Number.isFinite(g)) return undefined;
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  }
  if (tail) out.set(tail, 12);
  return out;
}

/** `10.0.0.0/8`, `fc00::/7`, or a bare address (a /32 or /128). */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const bytes = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (!bytes) return undefined;
  const maxBits = bytes.length * 8;
  const prefixBits = slash >= 0 ? Number(text.slice(slash + 1)) : maxBits;
  if (!Number.isInteger(prefixBits) || prefixBits < 0 || prefixBits > maxBits) return undefined;
  return { bytes, prefixBits };
}

export function cidrContains(cidr: Cidr, addr: Uint8Array): boolean {
  if (cidr.bytes.length !== addr.length) return false;
  const full = cidr.prefixBits >> 3;
  for (let i = 0; i < full; i++) if (cidr.bytes[i] !== addr[i]) return false;
  const rem = cidr.prefixBits & 7;
  if (rem === 0) return true;
  const mask = (0xff << (8 - rem)) & 0xff;
  return (cidr.bytes[full]! & mask) === (addr[full]! & mask);
}

function table(entries: Array<[string, AddressClass]>): Array<[Cidr, AddressClass]> {
  return entries.map(([text, cls]) => [parseCidr(text)!, cls]);
}

// Ordered: the first matching range wins, so narrower ranges come before the ones containing them.
const V4_RANGES = table([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'], // includes the cloud metadata address 169.254.169.254
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // includes the broadcast address
]);

const V6_RANGES = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'], // deprecated site-local, still routed inside some networks
  ['ff00::/8', 'multicast'],
]);

/** IPv6 forms that carry an IPv4 address a connection may end up reaching. */
const V6_EMBEDDING_V4: Array<[Cidr, number]> = [
  [parseCidr('::ffff:0:0/96')!, 12], // IPv4-mapped
  [parseCidr('::/96')!, 12], // IPv4-compatible (deprecated)
  [parseCidr('64:ff9b::/96')!, 12], // NAT64 well-known prefix
  [parseCidr('64:ff9b:1::/48')!, 12], // NAT64 local-use prefix
  [parseCidr('2002::/16')!, 2], // 6to4
];

export function classifyBytes(addr: Uint8Array): AddressClass {
  if (addr.length === 4) {
    for (const [cidr, cls] of V4_RANGES) if (cidrContains(cidr, addr)) return cls;
    return 'public';
  }
  for (const [cidr, cls] of V6_RANGES) if (cidrContains(cidr, addr)) return cls;
  for (const [cidr, offset] of V6_EMBEDDING_V4) {
    if (cidrContains(cidr, addr)) return classifyBytes(addr.subarray(offset, offset + 4));
  }
  return 'public';
}

export function classifyAddress(ip: string): AddressClass {
  const bytes = parseIp(ip);
  return bytes ? classifyBytes(bytes) : 'invalid';
}

/**
 * Whether a connection to `ip` is allowed: public addresses always; others only when private
 * networks are allowed wholesale or the address falls in an explicitly allowed range.
 */
export function isAddressAllowed(ip: string, allowPrivate: boolean, allowedCidrs: readonly Cidr[]): boolean {
  const bytes = parseIp(ip);
  if (!bytes) return false;
  if (allowPrivate) return true;
  if (classifyBytes(bytes) === 'public') return true;
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1, which WHATWG URL writes ::ffff:7f00:1) is the
  // same host as its IPv4 address, so a range allows both spellings. NAT64 and 6to4 forms reach
  // another host and stay refused unless their own range is allowed.
  const other = otherSpelling(bytes);
  for (const cidr of allowedCidrs) if (cidrContains(cidr, bytes) || (other && cidrContains(cidr, other))) return true;
  return false;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** IPv4 ↔ its IPv4-mapped IPv6 form; `undefined` for any other address. */
function otherSpelling(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length === 4) return Uint8Array.from([...MAPPED_PREFIX, ...bytes]);
  return MAPPED_PREFIX.every((b, i) => bytes[i] === b) ? bytes.subarray(12) : undefined;
}
