import { i18n } from "@orderline/i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { startI18n } from "./i18n.js";
import { tenantHint } from "./lib/api.js";
import { reloadOnStaleChunks } from "./stale-chunks.js";
import { applyCachedTenantWords } from "./tenant-words.js";
import "./styles.css";
import "./phone.css";

reloadOnStaleChunks();

// Nothing renders before the dictionaries, the stored language and the cached tenant words are
// in place: the first paint is translated, with the tenant's own words.
await startI18n();
const tenantId = tenantHint.read();
if (tenantId) applyCachedTenantWords(tenantId, i18n.language);
document.documentElement.lang = i18n.language;
i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = lng;
});

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
