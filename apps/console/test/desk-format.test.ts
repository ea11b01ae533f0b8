import { describe, expect, it } from "vitest";
import { formatMoney, moneyScale } from "../src/lib/format.js";
import { apiFilter, filtersOf, listQuery } from "../src/lib/order-filter.js";

const plain = (text: string | undefined) => text?.replace(/\s/g, " ");

describe("money in the order's currency", () => {
  it("formats the gateway's exact decimal strings in the user's language", () => {
    expect(plain(formatMoney("720001.3", "IDR", "en"))).toBe("IDR 720,001.30");
    expect(plain(formatMoney("720001.3", "EUR", "de"))).toBe("720.001,30 €");
    expect(plain(formatMoney("720001", "EUR", "en"))).toBe("€720,001.00");
    // Never rounded away: every decimal the amount has.
    expect(plain(formatMoney("0.1234", "EUR", "en"))).toBe("€0.1234");
    // Digits beyond a double's precision survive.
    expect(plain(formatMoney("99999999999999900000.0001", "USD", "en"))).toBe(
      "$99,999,999,999,999,900,000.0001",
    );
    expect(plain(formatMoney("12.5", null, "de"))).toBe("12,50");
    expect(formatMoney(null, "EUR", "en")).toBeUndefined();
    expect(plain(formatMoney("720001", "IDR", "id", moneyScale(["0.3", "720001"])))).toBe(
      "Rp 720.001,00",
    );
  });
});

describe("the desk's filters in the URL", () => {
  it("keeps search, partner, sort and page size, and drops what the API would refuse", () => {
    const filters = filtersOf(
      new URLSearchParams("q=%20po-10%20&partner=olc_1&sort=oldest&size=50&status=received"),
    );
    expect(filters).toEqual({
      q: "po-10",
      partner: "olc_1",
      sort: "oldest",
      size: "50",
      status: "received",
    });
    expect(filtersOf(new URLSearchParams("sort=sideways&size=7"))).toEqual({});
    const query = new URLSearchParams(listQuery(filters, 50, "c1"));
    expect(Object.fromEntries(query)).toEqual({
      limit: "50",
      cursor: "c1",
      status: "received",
      q: "po-10",
      partner: "olc_1",
      sort: "created_at",
    });
    expect(apiFilter(filters)).toEqual({ status: "received", q: "po-10", partner: "olc_1" });
  });
});
