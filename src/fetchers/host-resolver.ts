import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { Clock } from '../core/clock';
import { ErrorCodes, FreshetError } from '../core/errors';
import { classifyAddress, isAddressAllowed, type Cidr } from './address-class';
import { errorFromThrown, redactUrl } from './fetch-errors';
import { setNewest } from './bounded-map';

export type LookupAllFn = (hostname: string) => Promise<LookupAddress[]>;

export interface HostResolverOptions {
  clock: Clock;
  ttlMs: number;
  maxHosts: number;
  allowPrivate: boolean;
  allowedCidrs: readonly Cidr[];
  lookupAll?: LookupAllFn;
}

interface Entry {
  addresses: LookupAddress[];
  expiresAtMs: number;
  /** Set when one of the addresses is refused; cached too, so a hostile name costs one lookup. */
  blocked: { address: string; cls: string } | undefined;
}

type NetLookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const defaultLookupAll: LookupAllFn = (hostname) => dnsLookup(hostname, { all: true });

/**
 * DNS cache and SSRF guard in one place. The fetcher checks a host before it requests it, and
 * undici's connector resolves through `netLookup` — the same cache and the same check — so the
 * address a socket connects to is always one that was checked (no DNS-rebinding window between
 * the check and the connect).
 */
export class HostResolver {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly lookupAll: LookupAllFn;

  constructor(private readonly opts: HostResolverOptions) {
    this.lookupAll = opts.lookupAll ?? defaultLookupAll;
  }

  /**
   * Checks `hostname` (a URL hostname; IPv6 literals in brackets). On the hot path — a cached or
   * literal host — this returns `undefined` (or throws) without allocating a promise; otherwise it
   * returns the pending resolution. Errors are FreshetErrors.
   */
  check(hostname: string, url: string): Promise<unknown> | undefined {
    const cached = this.entries.get(hostname);
    if (cached !== undefined && cached.expiresAtMs > this.opts.clock.nowMs()) {
      if (cached.blocked) throw blockedError(url, hostname, cached.blocked.address, cached.blocked.cls);
      return undefined;
    }
    return this.resolve(hostname, url);
  }

  /** Resolves `hostname` to its addresses, or throws a FreshetError (blocked, DNS failure). */
  async resolve(hostname: string, url: string): Promise<LookupAddress[]> {
    const key = hostname.toLowerCase();
    const cached = this.entries.get(key);
    const entry = cached !== undefined && cached.expiresAtMs > this.opts.clock.nowMs() ? cached : await this.entry(key, url);
    if (entry.blocked) throw blockedError(url, hostname, entry.blocked.address, entry.blocked.cls);
    return entry.addresses;
  }

  /** A `lookup` for net.connect / tls.connect (undici passes it through its `connect` options). */
  readonly netLookup = (hostname: string, options: LookupOptions, callback: NetLookupCallback): void => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    this.resolve(hostname, hostname).then(
      (addresses) => {
        const wanted = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, []);
        } else if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, []),
    );
  };

  clear(): void {
    this.entries.clear();
  }

  private entry(key: string, url: string): Promise<Entry> | Entry {
    const literal = literalAddress(key);
    // Literals are cached like names (forever) so the hot path never re-parses them.
    if (literal !== undefined) return this.store(key, [{ address: literal, family: isIP(literal) }], Number.POSITIVE_INFINITY);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.load(key, url).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async load(hostname: string, url: string): Promise<Entry> {
    let addresses: LookupAddress[];
    try {
      addresses = await this.lookupAll(hostname);
    } catch (err) {
      throw errorFromThrown(err, url);
    }
    if (addresses.length === 0) {
      throw new FreshetError(ErrorCodes.fetchDns, 'non_retryable', `no address for ${hostname}`, { url, host: hostname });
    }
    return this.store(hostname, addresses, this.opts.clock.nowMs() + this.opts.ttlMs);
  }

  private store(key: string, addresses: LookupAddress[], expiresAtMs: number): Entry {
    // Any refused address refuses the name: a resolver that mixes public and private answers is
    // exactly how rebinding attacks pick the address the connection lands on.
    let blocked: Entry['blocked'];
    for (const a of addresses) {
      if (!isAddressAllowed(a.address, this.opts.allowPrivate, this.opts.allowedCidrs)) {
        blocked = { address: a.address, cls: classifyAddress(a.address) };
        break;
      }
    }
    const entry: Entry = { addresses, expiresAtMs, blocked };
    setNewest(this.entries, key, entry, this.opts.maxHosts);
    return entry;
  }
}

function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

function blockedError(url: string, host: string, address: string, cls: string): FreshetError {
  return new FreshetError(
    ErrorCodes.fetchBlockedAddress,
    'non_retryable',
    `refusing ${cls} address ${address} (set allow_private_networks or allowed_cidrs to opt in)`,
    { url: redactUrl(url), host, address, address_class: cls },
  );
}
