import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type ReactNode, useEffect, useRef } from "react";
import type { ApiError } from "./lib/api.js";
import { problemText } from "./lib/problem-text.js";
import type { shellModule } from "./modules.js";

/**
 * The page's heading, focused when the page opens so keyboard and screen reader users start
 * there after following a link (a hash change moves no focus by itself).
 */
export const PageTitle = ({ children }: { children: ReactNode }) => {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
};

/** A failed request: what went wrong, in the user's language, and a way to try again. */
export const Failure = ({ error, retry }: { error: ApiError; retry?: () => void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  return (
    <div className="notice error" role="alert">
      <p>{problemText(error, t)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          {t("common:actions.retry")}
        </button>
      )}
    </div>
  );
};

/**
 * A wide table's scroll box: a labelled region that takes focus, so keyboard users can scroll
 * it at 375 px (axe: scrollable-region-focusable).
 */
export const ScrollRegion = ({
  labelledBy,
  children,
}: {
  labelledBy: string;
  children: ReactNode;
}) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
  <section className="table-scroll" tabIndex={0} aria-labelledby={labelledBy}>
    {children}
  </section>
);
