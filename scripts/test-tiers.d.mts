/** Types of test-tiers.mjs. */
export declare const FAST: boolean;
export declare function slowFiles(files: readonly string[]): string[];
