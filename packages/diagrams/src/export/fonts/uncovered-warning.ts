/** The warning for characters no font draws, each named with its code point. */
export function uncoveredWarning(uncovered: readonly number[]): string {
  const shown = uncovered.slice(0, 12).map((cp) => {
    const hex = cp.toString(16).toUpperCase().padStart(4, "0");
    return `"${String.fromCodePoint(cp)}" (U+${hex})`;
  });
  const more =
    uncovered.length > shown.length ? ` and ${uncovered.length - shown.length} more` : "";
  return `no font draws ${shown.join(", ")}${more}: they show as empty boxes; install a font that has them (Debian: fonts-noto-core, fonts-noto-cjk) or name one with --font FILE`;
}
