import type { VisualPreset } from "../../core/model.js";
import type { DrawnClassification } from "./model.js";

/**
 * The colour of each data classification, per preset. Red stays the trust boundaries' and
 * crossings' colour (the theme's `security`), so classifications use green, blue, amber and
 * magenta, each readable on its preset's background. Colour is never alone: every flow label
 * names its classification too.
 */
export const CLASSIFICATION_COLORS: Record<VisualPreset, Record<DrawnClassification, string>> = {
  classic: {
    unclassified: "#475569",
    public: "#15803d",
    internal: "#2563eb",
    confidential: "#b45309",
    personal: "#a21caf",
  },
  "signal-flow": {
    unclassified: "#cbd5e1",
    public: "#4ade80",
    internal: "#38bdf8",
    confidential: "#fbbf24",
    personal: "#e879f9",
  },
  blueprint: {
    unclassified: "#cbd5e1",
    public: "#86efac",
    internal: "#ffffff",
    confidential: "#fcd34d",
    personal: "#f0abfc",
  },
  editorial: {
    unclassified: "#44403c",
    public: "#166534",
    internal: "#1e40af",
    confidential: "#92400e",
    personal: "#86198f",
  },
};

/** The more sensitive the data, the heavier its line. */
export const CLASSIFICATION_WIDTH: Record<DrawnClassification, number> = {
  unclassified: 1.5,
  public: 1.25,
  internal: 1.5,
  confidential: 2,
  personal: 2,
};
