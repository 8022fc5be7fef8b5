/**
 * HTTP statuses by which a site refuses the identity or address a request came from (rather than
 * the item): the pool benches that member and the subject is deferred, not failed.
 */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([403, 418, 429]);

/** A proxy's refusals: the site's, and the proxy's own 407 (its credentials refused). */
export const PROXY_REFUSAL_STATUSES: ReadonlySet<number> = new Set([...REFUSAL_STATUSES, 407]);
