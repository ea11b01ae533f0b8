import type { BandVariant, EdgeRole, LegendKey, VisualPreset } from "./model.js";

/** How a node shows its component type. */
export type NodeStyle = "tile" | "glow" | "outline" | "bar";

export interface BandColors {
  fill: string;
  fillOpacity: number;
  stroke: string;
  dash?: string;
  label: string;
}

/** Everything a preset decides: colours, strokes and finishes. Geometry is the layout's alone. */
export interface Theme {
  name: VisualPreset;
  background: string;
  /** Drawing-paper grid behind everything (blueprint). */
  grid?: { minor: string; major: string };
  text: string;
  muted: string;
  accent: string;
  titleRule: boolean;
  lane: {
    fill: string;
    fillAlt: string;
    fillOpacity: number;
    stroke: string;
    radius: number;
    headerFill: string;
    headerOpacity: number;
    headerText: string;
    exceptionFill: string;
    exceptionStroke: string;
    exceptionText: string;
  };
  phase: Record<BandVariant, BandColors>;
  group: Record<BandVariant, BandColors>;
  node: {
    style: NodeStyle;
    fill: string;
    stroke: string | "category";
    strokeWidth: number;
    radius: number;
    label: string;
    sublabel: string;
    tagFill: string | "category";
    tagText: string;
  };
  category: Record<LegendKey | "flow", string>;
  edge: Record<EdgeRole, string> & { corner: number; labelFill: string; labelText: string };
  security: string;
}

const band = (
  fill: string,
  fillOpacity: number,
  stroke: string,
  label: string,
  dash?: string,
): BandColors =>
  dash === undefined
    ? { fill, fillOpacity, stroke, label }
    : { fill, fillOpacity, stroke, label, dash };

const classic: Theme = {
  name: "classic",
  background: "#ffffff",
  text: "#1f2937",
  muted: "#6b7280",
  accent: "#2563eb",
  titleRule: false,
  lane: {
    fill: "#f8fafc",
    fillAlt: "#f1f5f9",
    fillOpacity: 1,
    stroke: "#e2e8f0",
    radius: 8,
    headerFill: "#e2e8f0",
    headerOpacity: 1,
    headerText: "#334155",
    exceptionFill: "#fff1f2",
    exceptionStroke: "#fda4af",
    exceptionText: "#9f1239",
  },
  phase: {
    default: band("#e2e8f0", 0.35, "#cbd5e1", "#475569"),
    emphasis: band("#dbeafe", 0.55, "#93c5fd", "#1d4ed8"),
    security: band("#fee2e2", 0.5, "#fca5a5", "#b91c1c"),
    dashed: band("#ffffff", 0, "#94a3b8", "#475569", "6 4"),
  },
  group: {
    default: band("#ffffff", 0.55, "#cbd5e1", "#475569"),
    emphasis: band("#eff6ff", 0.8, "#3b82f6", "#1d4ed8"),
    security: band("#fef2f2", 0.8, "#ef4444", "#b91c1c"),
    dashed: band("#ffffff", 0, "#94a3b8", "#475569", "5 4"),
  },
  node: {
    style: "tile",
    fill: "#ffffff",
    stroke: "category",
    strokeWidth: 1.25,
    radius: 8,
    label: "#111827",
    sublabel: "#6b7280",
    tagFill: "#f1f5f9",
    tagText: "#334155",
  },
  category: {
    frontend: "#2563eb",
    backend: "#7c3aed",
    database: "#059669",
    cloud: "#0284c7",
    security: "#dc2626",
    messagebus: "#d97706",
    external: "#475569",
    flow: "#0f172a",
  },
  edge: {
    main: "#1e293b",
    branch: "#64748b",
    async: "#0284c7",
    return: "#94a3b8",
    error: "#dc2626",
    corner: 6,
    labelFill: "#ffffff",
    labelText: "#334155",
  },
  security: "#dc2626",
};

const signalFlow: Theme = {
  name: "signal-flow",
  background: "#0b1020",
  text: "#e2e8f0",
  muted: "#94a3b8",
  accent: "#38bdf8",
  titleRule: false,
  lane: {
    fill: "#111936",
    fillAlt: "#0f1630",
    fillOpacity: 1,
    stroke: "#1e2a4f",
    radius: 12,
    headerFill: "#172150",
    headerOpacity: 1,
    headerText: "#c7d2fe",
    exceptionFill: "#24101f",
    exceptionStroke: "#f43f5e",
    exceptionText: "#fda4af",
  },
  phase: {
    default: band("#1e293b", 0.35, "#334155", "#94a3b8"),
    emphasis: band("#0c4a6e", 0.45, "#38bdf8", "#7dd3fc"),
    security: band("#4c0519", 0.45, "#fb7185", "#fda4af"),
    dashed: band("#000000", 0, "#475569", "#94a3b8", "6 4"),
  },
  group: {
    default: band("#1e293b", 0.4, "#334155", "#94a3b8"),
    emphasis: band("#0c4a6e", 0.35, "#38bdf8", "#7dd3fc"),
    security: band("#4c0519", 0.35, "#fb7185", "#fda4af"),
    dashed: band("#000000", 0, "#475569", "#94a3b8", "5 4"),
  },
  node: {
    style: "glow",
    fill: "#131c3a",
    stroke: "category",
    strokeWidth: 1.5,
    radius: 12,
    label: "#f8fafc",
    sublabel: "#94a3b8",
    tagFill: "category",
    tagText: "#0b1020",
  },
  category: {
    frontend: "#38bdf8",
    backend: "#a78bfa",
    database: "#34d399",
    cloud: "#22d3ee",
    security: "#fb7185",
    messagebus: "#fbbf24",
    external: "#cbd5e1",
    flow: "#f8fafc",
  },
  edge: {
    main: "#38bdf8",
    branch: "#64748b",
    async: "#a78bfa",
    return: "#475569",
    error: "#fb7185",
    corner: 10,
    labelFill: "#0b1020",
    labelText: "#cbd5e1",
  },
  security: "#fb7185",
};

const blueprint: Theme = {
  name: "blueprint",
  background: "#0d3b66",
  grid: { minor: "#164a7a", major: "#21598f" },
  text: "#e6f1ff",
  muted: "#9cc3e6",
  accent: "#ffffff",
  titleRule: true,
  lane: {
    fill: "#ffffff",
    fillAlt: "#ffffff",
    fillOpacity: 0.04,
    stroke: "#8fb8de",
    radius: 0,
    headerFill: "#ffffff",
    headerOpacity: 0.08,
    headerText: "#e6f1ff",
    exceptionFill: "#fca5a5",
    exceptionStroke: "#fca5a5",
    exceptionText: "#fecaca",
  },
  phase: {
    default: band("#ffffff", 0.04, "#8fb8de", "#cfe3f7", "2 3"),
    emphasis: band("#7dd3fc", 0.1, "#7dd3fc", "#e0f2fe"),
    security: band("#fca5a5", 0.1, "#fca5a5", "#fecaca"),
    dashed: band("#ffffff", 0, "#cfe3f7", "#cfe3f7", "6 4"),
  },
  group: {
    default: band("#ffffff", 0.03, "#cfe3f7", "#cfe3f7"),
    emphasis: band("#7dd3fc", 0.08, "#7dd3fc", "#e0f2fe"),
    security: band("#fca5a5", 0.08, "#fca5a5", "#fecaca"),
    dashed: band("#ffffff", 0, "#cfe3f7", "#cfe3f7", "5 4"),
  },
  node: {
    style: "outline",
    fill: "#0d3b66",
    stroke: "#e6f1ff",
    strokeWidth: 1.25,
    radius: 2,
    label: "#ffffff",
    sublabel: "#9cc3e6",
    tagFill: "#ffffff",
    tagText: "#0d3b66",
  },
  category: {
    frontend: "#7dd3fc",
    backend: "#c4b5fd",
    database: "#86efac",
    cloud: "#a5f3fc",
    security: "#fca5a5",
    messagebus: "#fde68a",
    external: "#e2e8f0",
    flow: "#ffffff",
  },
  edge: {
    main: "#ffffff",
    branch: "#bcd7f2",
    async: "#7dd3fc",
    return: "#9cc3e6",
    error: "#fca5a5",
    corner: 0,
    labelFill: "#0d3b66",
    labelText: "#e6f1ff",
  },
  security: "#fca5a5",
};

const editorial: Theme = {
  name: "editorial",
  background: "#faf7f2",
  text: "#1c1917",
  muted: "#78716c",
  accent: "#b45309",
  titleRule: true,
  lane: {
    fill: "#f3ede3",
    fillAlt: "#faf7f2",
    fillOpacity: 1,
    stroke: "#d6d3d1",
    radius: 0,
    headerFill: "#faf7f2",
    headerOpacity: 0,
    headerText: "#b45309",
    exceptionFill: "#fbeae5",
    exceptionStroke: "#b91c1c",
    exceptionText: "#991b1b",
  },
  phase: {
    default: band("#e7e5e4", 0.3, "#d6d3d1", "#57534e"),
    emphasis: band("#fde68a", 0.3, "#d97706", "#92400e"),
    security: band("#fecaca", 0.3, "#b91c1c", "#991b1b"),
    dashed: band("#ffffff", 0, "#a8a29e", "#57534e", "4 4"),
  },
  group: {
    default: band("#ffffff", 0.5, "#a8a29e", "#57534e"),
    emphasis: band("#fef3c7", 0.6, "#d97706", "#92400e"),
    security: band("#fee2e2", 0.6, "#b91c1c", "#991b1b"),
    dashed: band("#ffffff", 0, "#a8a29e", "#57534e", "4 4"),
  },
  node: {
    style: "bar",
    fill: "#ffffff",
    stroke: "#1c1917",
    strokeWidth: 0.75,
    radius: 2,
    label: "#1c1917",
    sublabel: "#78716c",
    tagFill: "#f5f5f4",
    tagText: "#44403c",
  },
  category: {
    frontend: "#1e3a8a",
    backend: "#6b21a8",
    database: "#166534",
    cloud: "#0e7490",
    security: "#b91c1c",
    messagebus: "#a16207",
    external: "#57534e",
    flow: "#1c1917",
  },
  edge: {
    main: "#1c1917",
    branch: "#78716c",
    async: "#0e7490",
    return: "#a8a29e",
    error: "#b91c1c",
    corner: 3,
    labelFill: "#faf7f2",
    labelText: "#44403c",
  },
  security: "#b91c1c",
};

export const THEMES: Record<VisualPreset, Theme> = {
  classic,
  "signal-flow": signalFlow,
  blueprint,
  editorial,
};
