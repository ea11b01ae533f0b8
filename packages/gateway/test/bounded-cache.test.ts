import { describe, expect, it } from "vitest";
import { BoundedCache } from "../src/lib/bounded-cache.js";

describe("BoundedCache", () => {
  it("forgets the least recently inserted entry first", () => {
    const cache = new BoundedCache<string, number>(3);
    for (const [i, key] of ["a", "b", "c", "d"].entries()) cache.set(key, i, Infinity);
    expect(cache.get("a", 0)).toBeUndefined();
    expect([cache.get("b", 0), cache.get("c", 0), cache.get("d", 0)]).toEqual([1, 2, 3]);
    expect(cache.size).toBe(3);
  });

  it("keeps an entry that is read while it drifts towards the oldest end", () => {
    const cache = new BoundedCache<string, number>(8);
    cache.set("hot", 0, Infinity);
    // 100 other entries pass through a cache of 8; the one read after each insertion stays.
    for (let i = 1; i <= 100; i++) {
      cache.set(`cold-${i}`, i, Infinity);
      expect(cache.get("hot", 0)).toBe(0);
    }
    expect(cache.get("cold-1", 0)).toBeUndefined();
    expect(cache.size).toBe(8);
  });

  it("keeps an entry read once it has drifted into the older half, and forgets the unread", () => {
    const cache = new BoundedCache<string, number>(4);
    cache.set("a", 1, Infinity);
    cache.set("b", 2, Infinity);
    cache.set("c", 3, Infinity);
    expect(cache.get("a", 0)).toBe(1); // two insertions since its own: moved to the newest end
    cache.set("d", 4, Infinity);
    cache.set("e", 5, Infinity);
    expect(cache.get("b", 0)).toBeUndefined();
    expect(cache.get("a", 0)).toBe(1);
  });

  it("drops an entry past its expiry", () => {
    const cache = new BoundedCache<string, number>(4);
    cache.set("a", 1, 1_000);
    expect(cache.get("a", 999)).toBe(1);
    expect(cache.get("a", 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
