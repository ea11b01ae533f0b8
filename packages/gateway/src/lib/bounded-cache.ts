/**
 * A size-bounded map that forgets the least recently inserted or read entry first.
 * Entries may carry their own expiry (ms since epoch, compared with the caller's clock).
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number; touched: number }>();
  /** Counts insertions: an entry's `touched` says how many came before its own. */
  #clock = 0;

  constructor(readonly maxEntries: number) {}

  get(key: K, now: number): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    // Moved to the newest end only once it has drifted into the older half: fewer than
    // maxEntries / 2 insertions since its own cannot make it the oldest of a full map, and the
    // move (a delete and an insert) was most of a hit's cost on the signed create's hot path.
    if (this.#clock - entry.touched >= this.maxEntries / 2) {
      this.#entries.delete(key);
      entry.touched = ++this.#clock;
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V, expiresAt: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt, touched: ++this.#clock });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  deleteWhere(predicate: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.#entries) {
      if (predicate(entry.value, key)) this.#entries.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
