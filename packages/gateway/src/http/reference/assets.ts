import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const REDOC_BUNDLE = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");

/** Where Redoc's credit link loads its logo from: a CDN the pages' CSP (rightly) refuses. */
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";

let redoc: Buffer | undefined;

/**
 * Redoc's bundle as the reference pages load it: the credit logo's CDN address replaced by an
 * empty inline image, so the page asks nothing of another host and the browser logs no CSP
 * violation (the credit link itself is hidden by the page's style). Read once, on first use.
 */
export function redocBundle(): Buffer {
  if (redoc === undefined) {
    const text = readFileSync(REDOC_BUNDLE, "utf8");
    if (!text.includes(REDOC_LOGO_URL))
      throw new Error(`redoc's bundle no longer names ${REDOC_LOGO_URL}: check assets.ts`);
    redoc = Buffer.from(
      text.replaceAll(
        REDOC_LOGO_URL,
        "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E",
      ),
    );
  }
  return redoc;
}

/** The gateway's icon (the browser's tab, bookmarks): served at /favicon.ico. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#1d4f7a"/>
<circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" stroke-width="3.5"/>
</svg>
`;
