import { describe, expect, it } from "vitest";
import { dateShape, formatLocalDate, parseLocalDate } from "../src/lib/local-date.js";

describe("dates typed in the console's language", () => {
  it("writes a date in each language's order and separator", () => {
    expect(formatLocalDate("2026-11-05", "de")).toBe("05.11.2026");
    expect(formatLocalDate("2026-11-05", "en")).toBe("11/05/2026");
    expect(formatLocalDate("2026-11-05", "id")).toBe("05/11/2026");
    expect(dateShape("de")).toEqual({ order: ["day", "month", "year"], separator: "." });
  });

  it("reads what was typed back to ISO, with any separator, and refuses days that do not exist", () => {
    expect(parseLocalDate("5.11.2026", "de")).toBe("2026-11-05");
    expect(parseLocalDate("05/11/2026", "id")).toBe("2026-11-05");
    expect(parseLocalDate("11/05/2026", "en")).toBe("2026-11-05");
    expect(parseLocalDate("2026-11-05", "de")).toBe("2026-11-05");
    expect(parseLocalDate("  ", "de")).toBe("");
    expect(parseLocalDate("31.02.2026", "de")).toBeUndefined();
    expect(parseLocalDate("13/13/2026", "en")).toBeUndefined();
    expect(parseLocalDate("5.11.26", "de")).toBeUndefined();
    expect(parseLocalDate("gestern", "de")).toBeUndefined();
  });
});
