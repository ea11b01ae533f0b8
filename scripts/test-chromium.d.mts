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
export declare const UNUSED_FEATURES: readonly string[];
export declare function chromiumLaunchOptions(
  executablePath: string,
): Promise<{ executablePath: string; args: string[]; ignoreDefaultArgs?: string[] }>;
export declare function launchChromium(
  executablePath: string,
): Promise<import("playwright-core").Browser>;
export declare function launchChromiumServer(
  executablePath: string,
): Promise<import("playwright-core").BrowserServer>;
