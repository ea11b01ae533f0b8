import { createContext } from "react";
import { getI18n, setI18n } from "react-i18next";
import type { I18nEngine } from "../engine/create-engine.js";
import { defaultEngine } from "../index.js";
import type { EnterpriseModuleConfig } from "../module/define-enterprise-module.js";

export const EngineContext = createContext<I18nEngine>(defaultEngine);
EngineContext.displayName = "I18nEngine";

export const ModuleContext = createContext<EnterpriseModuleConfig | null>(null);
ModuleContext.displayName = "EnterpriseModule";

// react-i18next's own `useTranslation()` and `<Trans>` find the application's engine too, as
// they would after `i18next.use(initReactI18next)`; an instance the app bound itself is kept.
if (!getI18n()) setI18n(defaultEngine.i18n);
