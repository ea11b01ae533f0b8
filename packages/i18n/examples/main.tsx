// The application's start-up: set the engine up before the first render, then apply the
// tenant's vocabulary after login, and sync language changes to the profile.
import {
  applyTenantConfig,
  changeLanguage,
  registerModuleNamespace,
  setupI18n,
} from "@orderline/i18n";
import { createRoot } from "react-dom/client";
import de from "../locales/de/common.json" with { type: "json" };
import en from "../locales/en/common.json" with { type: "json" };
import { BookingPage } from "./booking/booking-module.js";

registerModuleNamespace("common", { en, de });

const localStorageAdapter = {
  getLanguage: async () => localStorage.getItem("language"),
  setLanguage: async (lng: string) => localStorage.setItem("language", lng),
};

export const start = async (token: string) => {
  await setupI18n({ storageAdapter: localStorageAdapter, defaultLanguage: "en" });
  createRoot(document.getElementById("root") as HTMLElement).render(<BookingPage />);

  try {
    const response = await fetch("/v1/tenant/i18n-config", {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`tenant vocabulary: HTTP ${response.status}`);
    applyTenantConfig(await response.json());
  } catch (error) {
    console.warn("Continuing with the standard vocabulary", error);
  }
};

export const chooseLanguage = (language: string, token: string) =>
  changeLanguage(language, async (lng) => {
    const response = await fetch("/v1/user/profile", {
      method: "PATCH",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ language: lng }),
    });
    if (!response.ok) throw new Error(`profile sync: HTTP ${response.status}`);
  });
