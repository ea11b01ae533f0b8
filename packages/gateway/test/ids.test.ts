import { describe, expect, it } from "vitest";
import { newId } from "../src/lib/random.js";

describe("newId", () => {
  it("makes RFC 9562 version-7 UUIDs that sort by creation time", () => {
    const earlier = newId(Date.UTC(2026, 0, 1));
    const later = newId(Date.UTC(2026, 0, 1, 0, 0, 0, 1));
    expect(earlier).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(earlier < later).toBe(true);
    expect(earlier.slice(0, 13).replace("-", "")).toBe(
      Date.UTC(2026, 0, 1).toString(16).padStart(12, "0"),
    );
    expect(newId()).not.toBe(newId());
  });
});
