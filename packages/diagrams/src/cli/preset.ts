import type { VisualPreset } from "../core/model.js";

// Listed here rather than imported from core/model.ts' runtime constants so the command list
// loads without the schema module; test/render-cli.test.ts checks both lists agree.
export const PRESET_NAMES: readonly VisualPreset[] = [
  "classic",
  "signal-flow",
  "blueprint",
  "editorial",
];

/** The --preset value checked: the preset, undefined when absent, or an error message. */
export function parsePreset(
  value: string | undefined,
): VisualPreset | undefined | { error: string } {
  if (value === undefined) return undefined;
  if ((PRESET_NAMES as readonly string[]).includes(value)) return value as VisualPreset;
  return { error: `--preset must be one of ${PRESET_NAMES.join(", ")}, not "${value}"` };
}
