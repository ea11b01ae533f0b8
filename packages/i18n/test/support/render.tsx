import { type RenderResult, render } from "@testing-library/react";
import type { ReactNode } from "react";
import type { EnterpriseModuleConfig, I18nEngine } from "../../src/index.js";
import {
  EnterpriseModuleProvider,
  I18nEngineProvider,
  useEnterpriseModuleTranslationContext,
} from "../../src/react/index.js";

/** Renders children inside a module of the given engine, as an application page would. */
export const renderInModule = (
  engine: I18nEngine,
  module: EnterpriseModuleConfig,
  children: ReactNode,
): RenderResult =>
  render(
    <I18nEngineProvider engine={engine}>
      <EnterpriseModuleProvider module={module}>{children}</EnterpriseModuleProvider>
    </I18nEngineProvider>,
  );

/** Shows one key of the current module and counts its renders. */
export const Probe = ({ k, counter }: { k: string; counter?: { renders: number } }) => {
  const { t } = useEnterpriseModuleTranslationContext<string>();
  if (counter) counter.renders++;
  return <span data-testid="probe">{t(k as never)}</span>;
};
