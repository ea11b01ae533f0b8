import { describe, expect, it } from "vitest";
import { planLegend } from "../src/core/legend.js";

const meta = { title: "T" };

describe("the legend any type draws (core/legend.ts)", () => {
  it("auto: one entry per category used, line styles only when two or more roles are drawn", () => {
    const one = planLegend(meta, ["service", "backend", "start"], ["main", "main"]);
    const legend = one.place(10, 100, 600);
    expect(legend?.items.map((i) => `${i.kind}:${i.key}`)).toEqual(["category:backend"]);
    expect(legend?.title.lines).toEqual(["Legend"]);
    const two = planLegend(meta, ["database"], ["async", "main"]).place(10, 100, 600);
    expect(two?.items.map((i) => `${i.kind}:${i.key}`)).toEqual([
      "category:database",
      "flow:main",
      "flow:async",
    ]);
  });

  it("manual lists exactly the entries; hidden and an empty auto legend take no room", () => {
    const manual = planLegend(
      {
        ...meta,
        legend: { mode: "manual", entries: { cloud: { label: "AWS", description: "x" } } },
      },
      ["backend"],
      [],
    ).place(0, 0, 600);
    expect(manual?.items).toMatchObject([{ key: "cloud", label: "AWS", description: "x" }]);
    const hidden = planLegend(
      { ...meta, legend: { mode: "hidden" } },
      ["backend"],
      ["main", "error"],
    );
    expect(hidden.height(600)).toBe(0);
    expect(hidden.place(0, 0, 600)).toBeUndefined();
    expect(planLegend(meta, ["start", "end"], ["main"]).height(600)).toBe(0);
  });

  it("wraps into more rows when narrower, and follows meta.locale", () => {
    const plan = planLegend({ ...meta, locale: "de" }, ["backend", "database", "cloud"], []);
    expect(plan.height(120)).toBeGreaterThan(plan.height(900));
    expect(plan.place(0, 0, 900)?.title.lines).toEqual(["Legende"]);
  });
});
