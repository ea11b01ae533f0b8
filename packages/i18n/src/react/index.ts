/** @orderline/i18n/react: the React binding of the engine. */

export {
  defineEnterpriseModule,
  type EnterpriseModuleConfig,
} from "../module/define-enterprise-module.js";
export { EngineContext, ModuleContext } from "./context.js";
export { EnterpriseModuleProvider } from "./enterprise-module-provider.js";
export { I18nEngineProvider } from "./i18n-engine-provider.js";
export { useEnterpriseModuleTranslationContext } from "./use-enterprise-module-translation-context.js";
