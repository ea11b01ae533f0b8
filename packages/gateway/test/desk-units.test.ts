import { describe, expect, it } from "vitest";
import { csvCell, csvConventions } from "../src/domain/orders/csv.js";
import { lineTotal, sumOf } from "../src/lib/money.js";
import { containsPattern } from "../src/store/order-search.js";

describe("exact line and order totals", () => {
  it("multiplies and sums decimals without binary floating-point error", () => {
    expect(lineTotal(3, 0.1)).toBe("0.3");
    expect(lineTotal(2, 360000.5)).toBe("720001");
    expect(lineTotal(1.5, "19.99")).toBe("29.985");
    expect(lineTotal(1_000_000_000, "99999999999.9999")).toBe("99999999999999900000");
    expect(lineTotal(1e-7, 3)).toBe("0.0000003");
    expect(sumOf(["0.1", "0.2"])).toBe("0.3");
    expect(sumOf(["720001", "0.3"])).toBe("720001.3");
    expect(sumOf([])).toBe("0");
  });
});

describe("CSV cells", () => {
  it("turns formulas into text and quotes what needs quoting", () => {
    for (const formula of ["=1+1", "+CMD", "-2", "@SUM(A1)", "\tx", "\rx"])
      expect(csvCell(formula, ",").startsWith("'") || csvCell(formula, ",").startsWith("\"'")).toBe(
        true,
      );
    expect(csvCell("a,b", ",")).toBe('"a,b"');
    expect(csvCell("a,b", ";")).toBe("a,b");
    expect(csvCell('say "hi"', ",")).toBe('"say ""hi"""');
    expect(csvCell("two\nlines", ";")).toBe('"two\nlines"');
    expect(csvCell("PO-1", ",")).toBe("PO-1");
  });

  it("follows the language's conventions", () => {
    expect(csvConventions("de-AT")).toMatchObject({ delimiter: ";", decimal: "," });
    expect(csvConventions("id")).toMatchObject({ delimiter: ";", decimal: "," });
    expect(csvConventions("fr")).toMatchObject({ delimiter: ",", decimal: "." });
    expect(csvConventions("fr").header[0]).toBe("Order number");
  });
});

describe("search patterns", () => {
  it("takes LIKE's wildcards literally", () => {
    expect(containsPattern("PO_1%")).toBe("%po\\_1\\%%");
    expect(containsPattern("a\\b")).toBe("%a\\\\b%");
  });
});
