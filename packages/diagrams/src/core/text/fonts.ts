import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * The TTF files behind FONT_FAMILY, shipped by an npm package. PNG and PDF output load exactly
 * these (never system fonts), so every machine draws the same glyphs the layout measured.
 */
export function fontFiles(): { regular: string; semibold: string } {
  return {
    regular: require.resolve("@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf"),
    semibold: require.resolve("@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf"),
  };
}
