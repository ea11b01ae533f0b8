import { i18n } from "@orderline/i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { startI18n } from "./i18n.js";
import { sessionStore } from "./lib/api.js";
import { applyCachedTenantWords } from "./tenant-words.js";
import "./styles.css";
import "./phone.css";

// Nothing renders before the dictionaries, the stored language and the cached tenant words are
// in place: the first paint is translated, with the tenant's own words.
await startI18n();
const session = sessionStore.read();
if (session?.tenantId) applyCachedTenantWords(session.tenantId, i18n.language);
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
