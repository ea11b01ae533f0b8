import { readFileSync } from "node:fs";

/**
 * Redoc's bundle, copied into dist/assets at build time (scripts/copy-redoc.mjs) with its CDN logo
 * replaced; the same path from src/ and dist/, so tests that import the source find it too.
 */
const REDOC_BUNDLE = new URL("../../../dist/assets/redoc.standalone.js", import.meta.url);

let redoc: Buffer | undefined;

/** Redoc's bundle as the reference pages load it. Read once, on first use. */
export function redocBundle(): Buffer {
  redoc ??= readFileSync(REDOC_BUNDLE);
  return redoc;
}

/** The gateway's icon (the browser's tab, bookmarks): served at /favicon.ico. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#1d4f7a"/>
<circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" stroke-width="3.5"/>
</svg>
`;
