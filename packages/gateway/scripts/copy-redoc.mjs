// The API reference pages (/docs) load Redoc's standalone bundle. It is copied into dist/ at build
// time so that a production install needs neither the redoc package nor the React, MobX and
// styled-components it depends on (about 60 MB of node_modules): only this one file.
// The credit logo's CDN address is replaced by an empty inline image, so the page asks nothing of
// another host and the browser logs no CSP violation (the credit link is hidden by the page's style).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E";

const text = readFileSync(require.resolve("redoc/bundles/redoc.standalone.js"), "utf8");
if (!text.includes(LOGO_URL)) {
  console.error(`redoc's bundle no longer names ${LOGO_URL}: check scripts/copy-redoc.mjs`);
  process.exit(1);
}
const out = new URL("../dist/assets/", import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL("redoc.standalone.js", out), text.replaceAll(LOGO_URL, EMPTY_IMAGE));
writeFileSync(
  new URL("redoc.LICENSE", out),
  readFileSync(require.resolve("redoc/LICENSE"), "utf8"),
);
