/**
 * A bounded cache in two generations: new entries go to the young map; when it reaches half the
 * budget it becomes the old map and the previous old map is dropped whole. Every operation is O(1).
 * (A Map used as a FIFO is not: after many deletes from its front, V8 iterates over the holes on
 * every eviction, which made serving the full truth of a big world quadratic.)
 */
export class BoundedCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngWeight = 0;

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.set(key, aged);
    }
    return aged;
  }

  set(key: K, value: V): void {
    const previous = this.young.get(key);
    if (previous !== undefined) this.youngWeight -= this.weigh(previous);
    this.young.set(key, value);
    this.youngWeight += this.weigh(value);
    if (this.youngWeight >= this.budget / 2) {
      this.old = this.young;
      this.young = new Map();
      this.youngWeight = 0;
    }
  }

  /** Upper bound of the weight held (both generations). */
  get weight(): number {
    let w = this.youngWeight;
    for (const v of this.old.values()) w += this.weigh(v);
    return w;
  }
}
