import { round } from "./geometry.js";
import {
  type ComponentType,
  EDGE_ROLES,
  type EdgeRole,
  LEGEND_CATEGORY,
  LEGEND_KEYS,
  type LegendKey,
  type Meta,
} from "./model.js";
import type { LegendItem, LegendLayout } from "./svg/document.js";
import { place, type TextBlock, textBlock } from "./text/block.js";
import { wordsFor } from "./words.js";

interface LegendText {
  kind: "category" | "flow";
  key: LegendKey | EdgeRole;
  label: string;
  description: string | undefined;
  swatchWidth: number;
  block: TextBlock;
}

/** A legend sized before the drawing is: its height for a width, then its place. */
export interface LegendPlan {
  /** The legend's height (title and rows) when it may be `width` wide; 0 when there is none. */
  height(width: number): number;
  /** The legend laid out at (x, top), `width` wide; undefined when there is none. */
  place(x: number, top: number, width: number): LegendLayout | undefined;
}

/**
 * The legend every type draws under its body, from meta.legend: in `auto` mode one entry per
 * legend category the drawn component types use, and the line styles when more than one role
 * is drawn; in `manual` mode exactly the categories in `entries`; `hidden`, none. Entries
 * relabel categories; the default words follow meta.locale. `roles` are the roles drawn, in
 * any order.
 */
export function planLegend(
  meta: Meta,
  types: Iterable<ComponentType>,
  roles: Iterable<EdgeRole>,
): LegendPlan {
  const words = wordsFor(meta.locale);
  const mode = meta.legend?.mode ?? "auto";
  const entries = meta.legend?.entries ?? {};
  let keys: LegendKey[] = [];
  if (mode === "auto") {
    const used = new Set([...types].map((t) => LEGEND_CATEGORY[t]));
    keys = LEGEND_KEYS.filter((k) => used.has(k));
  } else if (mode === "manual") {
    keys = LEGEND_KEYS.filter((k) => entries[k] !== undefined);
  }
  const texts: LegendText[] = keys.map((key) => {
    const entry = entries[key];
    const label = entry?.label ?? words.categories[key];
    const text = entry?.description ? `${label} — ${entry.description}` : label;
    return {
      kind: "category",
      key,
      label,
      description: entry?.description,
      swatchWidth: 14,
      block: textBlock(text, 11, "regular", 260, 2),
    };
  });
  // In auto mode the legend also explains the line styles, when more than one is drawn.
  if (mode === "auto") {
    const drawn = new Set(roles);
    const used = EDGE_ROLES.filter((r) => drawn.has(r));
    if (used.length > 1) {
      for (const role of used) {
        texts.push({
          kind: "flow",
          key: role,
          label: words.flows[role],
          description: undefined,
          swatchWidth: 26,
          block: textBlock(words.flows[role], 11, "regular", 260, 1),
        });
      }
    }
  }
  const rowsFor = (width: number) => {
    const rows: { x: number; row: number }[] = [];
    let x = 0;
    let row = 0;
    for (const t of texts) {
      const w = t.swatchWidth + 6 + t.block.box.width + 22;
      if (x > 0 && x + w > width) {
        row++;
        x = 0;
      }
      rows.push({ x, row });
      x += w;
    }
    return rows;
  };
  const rowCount = (width: number) => Math.max(...rowsFor(width).map((r) => r.row)) + 1;
  return {
    height: (width) => (texts.length === 0 ? 0 : 18 + rowCount(width) * 30),
    place(x0, top, width) {
      if (texts.length === 0) return undefined;
      const title = place(textBlock(words.legend, 11, "semibold", 200, 1), x0, top);
      const rows = rowsFor(width);
      const items: LegendItem[] = texts.map((t, i) => {
        const r = rows[i] as { x: number; row: number };
        const rowY = top + 18 + r.row * 30;
        const swatch = { x: round(x0 + r.x), y: round(rowY + 4), width: t.swatchWidth, height: 14 };
        const text = place(
          t.block,
          x0 + r.x + t.swatchWidth + 6,
          rowY + 11 - t.block.box.height / 2,
        );
        if (t.kind === "flow") {
          return { kind: "flow", key: t.key as EdgeRole, label: t.label, swatch, text };
        }
        const item: LegendItem = {
          kind: "category",
          key: t.key as LegendKey,
          label: t.label,
          swatch,
          text,
        };
        if (t.description !== undefined) item.description = t.description;
        return item;
      });
      return {
        box: { x: x0, y: round(top), width: round(width), height: 18 + rowCount(width) * 30 },
        title,
        items,
      };
    },
  };
}
