import { createHash } from "node:crypto";
import type { Audience } from "./documents.js";

const TITLES: Record<Audience, string> = {
  partner: "Orderline Partner API reference",
  tenant: "Orderline Tenant API reference",
  webhooks: "Orderline webhooks for partners",
};

/** Redoc's options: see decisions.md, "API reference: Redoc". */
const OPTIONS = {
  expandResponses: "200,201",
  jsonSampleExpandLevel: 4,
  requiredPropsFirst: true,
  pathInMiddlePanel: true,
  hideDownloadButton: false,
  nativeScrollbars: true,
  theme: {
    colors: { primary: { main: "#1d4f7a" } },
    typography: {
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
      headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" },
      code: { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace" },
    },
    sidebar: { backgroundColor: "#f4f6f8" },
  },
};

/**
 * The reference page: Redoc, served by the gateway itself, rendering the audience's document.
 * Its Content-Security-Policy lets the page load nothing from elsewhere (Redoc's credit link
 * would fetch a logo from its vendor's CDN: the served bundle no longer names it, see
 * assets.ts, and the link is hidden): the page is the gateway's, and works without internet
 * access.
 */
export function referencePage(audience: Audience): { html: string; csp: string } {
  const init = `Redoc.init("/openapi/${audience}.json", ${JSON.stringify(OPTIONS)}, document.getElementById("reference"));`;
  const hash = createHash("sha256").update(init).digest("base64");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'sha256-${hash}'`,
    // Redoc styles with styled-components (inline <style>) and searches in a blob: worker.
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLES[audience]}</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<style>
  body { margin: 0; }
  a[href*="redocly.com"], a[href*="redoc.ly"] { display: none !important; }
</style>
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/redoc.standalone.js"></script>
<script>${init}</script>
</body>
</html>
`;
  return { html, csp };
}
