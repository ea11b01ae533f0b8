import { afterEach, describe, expect, it, vi } from "vitest";
import { chromiumOrSkip, findChromium } from "../test-chromium.mjs";

// The helper every browser test uses to find Chromium (scripts/test-chromium.mjs): where it is
// missing the suites skip loudly on a developer's machine and fail in CI.
describe("finding Chromium for the browser tests", () => {
  afterEach(() => vi.restoreAllMocks());

  it("CHROMIUM_PATH wins over the known paths", () => {
    expect(findChromium({ CHROMIUM_PATH: "/opt/chrome/chrome" }, [process.execPath])).toBe(
      "/opt/chrome/chrome",
    );
  });

  it("else the first known path that can be executed", () => {
    expect(findChromium({}, ["/nonexistent/chromium", process.execPath])).toBe(process.execPath);
  });

  it("none found: a warning naming the suite outside CI, an error in CI", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(chromiumOrSkip("the preview", {}, ["/nonexistent/chromium"])).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toContain('SKIPPING "the preview"');
    expect(() => chromiumOrSkip("the preview", { CI: "true" }, ["/nonexistent/chromium"])).toThrow(
      /CI runs every browser test/,
    );
  });
});
