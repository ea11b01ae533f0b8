import { assertNamespace } from "../lib/namespace.js";

/**
 * A feature module's configuration; `translationNamespace` names its registered dictionaries.
 * Modules may carry other settings of their own (routes, permissions, …).
 */
export interface EnterpriseModuleConfig<N extends string = string> {
  readonly translationNamespace: N;
  /** Shown in development messages; defaults to the namespace. */
  readonly name?: string;
}

/**
 * Declares a feature module: checks the namespace and returns a frozen copy. The literal
 * namespace type is kept, so `useEnterpriseModuleTranslationContext<typeof bookingModule>()`
 * checks keys at compile time.
 */
export const defineEnterpriseModule = <const C extends EnterpriseModuleConfig>(
  config: C,
): Readonly<C> => {
  assertNamespace(config?.translationNamespace, "defineEnterpriseModule translationNamespace");
  return Object.freeze({ ...config });
};
