import type { FlatNamespace } from "i18next";
import { useContext } from "react";
import { type UseTranslationResponse, useTranslation } from "react-i18next";
import { COMMON_NAMESPACE } from "../engine/setup.js";
import type { EnterpriseModuleConfig } from "../module/define-enterprise-module.js";
import { EngineContext, ModuleContext } from "./context.js";

/** The namespace of a module config type, or a namespace given directly. */
type NamespaceOf<M> = M extends EnterpriseModuleConfig<infer N> ? N : M;

/**
 * `t` scoped to the current module's namespace plus `common`: module keys are written without
 * prefix, global ones as `common:key`. The module comes from the nearest
 * `<EnterpriseModuleProvider>`. For typed keys, name the module (or its namespace):
 * `useEnterpriseModuleTranslationContext<typeof bookingModule>()`.
 */
export function useEnterpriseModuleTranslationContext<
  M extends EnterpriseModuleConfig<FlatNamespace> | FlatNamespace = FlatNamespace,
>(): UseTranslationResponse<[NamespaceOf<M> & FlatNamespace, typeof COMMON_NAMESPACE], undefined> {
  const module = useContext(ModuleContext);
  const engine = useContext(EngineContext);
  // The module's namespace is only known at run time; its key types come from M.
  const namespaces = [
    module?.translationNamespace ?? COMMON_NAMESPACE,
    COMMON_NAMESPACE,
  ] as unknown as [FlatNamespace, FlatNamespace];
  const response = useTranslation(namespaces, { i18n: engine.i18n });
  if (!module) {
    throw new Error(
      "useEnterpriseModuleTranslationContext must be called inside <EnterpriseModuleProvider module={…}>",
    );
  }
  return response as unknown as UseTranslationResponse<
    [NamespaceOf<M> & FlatNamespace, typeof COMMON_NAMESPACE],
    undefined
  >;
}
