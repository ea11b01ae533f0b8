import { describe, expect, it } from "vitest";
import {
  encodeTenantCursor,
  initialHead,
  parseTenantCursor,
  settledEvents,
} from "../src/domain/events/cursor.js";

const NOW = 1_000_000;
const SETTLE = 5000;
const ev = (seq: number, ageMs = 0) => ({ seq, createdAt: NOW - ageMs });

describe("settledEvents: which outbox events a stream may pass on", () => {
  it("passes contiguous events on at once", () => {
    expect(settledEvents([ev(4), ev(5), ev(6)], 3, NOW, SETTLE).map((e) => e.seq)).toEqual([
      4, 5, 6,
    ]);
  });

  it("stops before a gap whose next event is younger than the settle time", () => {
    expect(settledEvents([ev(4), ev(6), ev(7)], 3, NOW, SETTLE).map((e) => e.seq)).toEqual([4]);
    expect(settledEvents([ev(5)], 3, NOW, SETTLE)).toEqual([]);
  });

  it("passes over a gap once the event after it is old enough (rolled back or purged)", () => {
    expect(settledEvents([ev(4), ev(6, SETTLE), ev(8)], 3, NOW, SETTLE).map((e) => e.seq)).toEqual([
      4, 6,
    ]);
  });
});

describe("initialHead: where a starting feed begins", () => {
  it("is 0 on an empty outbox, and after the newest settled run otherwise", () => {
    expect(initialHead([], NOW, SETTLE)).toBe(0);
    // Newest first: 9 and 10 are young but contiguous after the settled 8.
    expect(initialHead([ev(10), ev(9), ev(8, SETTLE)], NOW, SETTLE)).toBe(10);
    // 11 follows a gap (10 missing) and is young: the feed starts at 9 and reads 11 later.
    expect(initialHead([ev(11), ev(9), ev(8, SETTLE)], NOW, SETTLE)).toBe(9);
    // Nothing settled at all: before the oldest seen.
    expect(initialHead([ev(12), ev(11)], NOW, SETTLE)).toBe(12);
    expect(initialHead([ev(12), ev(10)], NOW, SETTLE)).toBe(10);
  });
});

describe("tenant cursor", () => {
  it("round-trips, and refuses anything the stream did not send", () => {
    const cursor = {
      eventId: "evt_01a2b3c4-0000-7000-8000-000000000001",
      vocabularyAt: 1767225600000,
    };
    expect(parseTenantCursor(encodeTenantCursor(cursor))).toEqual(cursor);
    expect(parseTenantCursor("-@5")).toEqual({ eventId: null, vocabularyAt: 5 });
    for (const bad of [
      "",
      "evt_x",
      "evt_x@",
      "x@5",
      "evt_a b@5",
      `evt_${"a".repeat(81)}@5`,
      "-@1e5",
    ])
      expect(parseTenantCursor(bad), bad).toBeUndefined();
  });
});
