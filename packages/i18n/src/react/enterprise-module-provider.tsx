import { type ReactNode, useContext } from "react";
import type { EnterpriseModuleConfig } from "../module/define-enterprise-module.js";
import { EngineContext, ModuleContext } from "./context.js";

/**
 * Makes a feature module's configuration available to the hook below it. In development, a
 * `translationNamespace` with no registered dictionary is reported through `onWarning`.
 */
export const EnterpriseModuleProvider = ({
  module,
  children,
}: {
  module: EnterpriseModuleConfig;
  children?: ReactNode;
}) => {
  const engine = useContext(EngineContext);
  const ns = module.translationNamespace;
  if (engine.development && !engine.hasNamespace(ns)) {
    engine.reportOnce(
      `module-namespace\u0000${ns}`,
      `module "${module.name ?? ns}" has translationNamespace "${ns}", but no dictionary is registered under "${ns}". Call registerModuleNamespace("${ns}", …) with the same name.`,
    );
  }
  return <ModuleContext.Provider value={module}>{children}</ModuleContext.Provider>;
};
