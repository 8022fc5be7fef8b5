/**
 * Stores `value` as the newest entry of `map` (insertion order is the age), first dropping the
 * oldest entry when a new key would take the map past `max`: the bound of the DNS and robots caches.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.delete(key);
  map.set(key, value);
}
