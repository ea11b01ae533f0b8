import { describe, expect, it } from "vitest";
import { actionsFrom } from "../src/lib/lifecycle.js";
import { filtersOf, filtersQuery, listQuery, rangeReversed } from "../src/lib/order-filter.js";

describe("the orders list's filters in the URL", () => {
  it("reads the filters a user set and drops what the API would refuse", () => {
    expect(
      filtersOf(new URLSearchParams("status=accepted&from=2026-11-01&to=2026-11-22&po=PO-7")),
    ).toEqual({
      status: "accepted",
      from: "2026-11-01",
      to: "2026-11-22",
      po: "PO-7",
    });
    expect(
      filtersOf(new URLSearchParams("status=lost&from=2026-02-30&to=yesterday&po=%20")),
    ).toEqual({});
  });

  it("writes them back in a fixed order, leaving empty ones out", () => {
    expect(filtersQuery({ po: "PO-1", status: "", from: "2026-11-01" }).toString()).toBe(
      "from=2026-11-01&po=PO-1",
    );
  });

  it("asks the API for whole days in the browser's time zone, the last one included", () => {
    const query = new URLSearchParams(
      listQuery({ status: "received", from: "2026-11-01", to: "2026-11-22", po: "PO-7" }, 20, "c1"),
    );
    expect(query.get("limit")).toBe("20");
    expect(query.get("cursor")).toBe("c1");
    expect(query.get("status")).toBe("received");
    expect(query.get("purchase_order_no")).toBe("PO-7");
    const from = new Date(query.get("created_from") as string);
    const to = new Date(query.get("created_to") as string);
    expect([from.getFullYear(), from.getMonth(), from.getDate(), from.getHours()]).toEqual([
      2026, 10, 1, 0,
    ]);
    // created_to is exclusive: the midnight that ends the 22nd.
    expect([to.getMonth(), to.getDate(), to.getHours(), to.getMinutes()]).toEqual([10, 23, 0, 0]);
    expect(query.get("created_from")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("knows a backwards range", () => {
    expect(rangeReversed({ from: "2026-11-22", to: "2026-11-01" })).toBe(true);
    expect(rangeReversed({ from: "2026-11-22", to: "2026-11-22" })).toBe(false);
    expect(rangeReversed({ from: "2026-11-22" })).toBe(false);
  });
});

describe("the actions offered for an order", () => {
  const names = (status: string, role: "admin" | "member") =>
    actionsFrom(status, role).map((a) => `${a.action}${a.permitted ? "" : " (admin)"}`);

  it("follows the gateway's lifecycle: only what the status allows", () => {
    expect(names("received", "admin")).toEqual(["accept", "reject", "cancel"]);
    expect(names("accepted", "admin")).toEqual(["fulfil", "cancel"]);
    for (const final of ["rejected", "fulfilled", "cancelled"]) {
      expect(names(final, "admin")).toEqual([]);
    }
  });

  it("marks cancel as an admin's action for members, and asks for reasons where required", () => {
    expect(names("accepted", "member")).toEqual(["fulfil", "cancel (admin)"]);
    expect(
      actionsFrom("received", "admin")
        .filter((a) => a.reasonRequired)
        .map((a) => a.action),
    ).toEqual(["reject", "cancel"]);
  });
});
