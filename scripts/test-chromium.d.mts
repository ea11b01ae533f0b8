/** Types of test-chromium.mjs (plain JavaScript so every workspace can import it). */
export declare const KNOWN_CHROMIUM_PATHS: readonly string[];
export declare function findChromium(
  env?: NodeJS.ProcessEnv,
  paths?: readonly string[],
): string | undefined;
export declare function chromiumOrSkip(
  suite: string,
  env?: NodeJS.ProcessEnv,
  paths?: readonly string[],
): string | undefined;
