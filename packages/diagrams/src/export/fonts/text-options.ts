/** What PNG and PDF output take for drawing text the bundled font lacks. */
export interface TextOptions {
  /**
   * Font files (.ttf, .otf, .ttc) tried before the system's fonts for characters the bundled
   * Inter lacks (CJK, Arabic, Thai, Devanagari…).
   */
  fonts?: readonly string[];
  /** The drawing's language (meta.locale): picks the face of a CJK font collection. */
  locale?: string;
  /** Told of characters that no font draws (they show as empty boxes). */
  onWarning?: (message: string) => void;
}
