import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import type { I18nEngine } from "../engine/create-engine.js";
import { EngineContext } from "./context.js";

/**
 * Puts an engine other than the package's default one under a tree (tests, embedded apps).
 * react-i18next's own `useTranslation()` and `<Trans>` below it use the same engine.
 * Applications using the top-level `setupI18n` need no provider.
 */
export const I18nEngineProvider = ({
  engine,
  children,
}: {
  engine: I18nEngine;
  children?: ReactNode;
}) => (
  <EngineContext.Provider value={engine}>
    <I18nextProvider i18n={engine.i18n}>{children}</I18nextProvider>
  </EngineContext.Provider>
);
