import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { Component, type ReactNode } from "react";
import { PageTitle } from "./components.js";
import type { shellModule } from "./modules.js";

/**
 * A page's code that did not arrive (offline, or a chunk a newer deployment removed): the
 * browser's dynamic import rejects with a TypeError naming the module. Retrying it in place
 * would get the same cached failure, so its retry reloads the console (same page, same session).
 */
const isChunkFailure = (error: unknown): boolean =>
  error instanceof TypeError && /import|module/i.test(error.message);

const PageFailed = ({ error, retry }: { error: unknown; retry(): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const chunk = isChunkFailure(error);
  return (
    <>
      <PageTitle>{t("pageError.title")}</PageTitle>
      <div className="notice error" role="alert" data-testid="page-error">
        <p>{chunk ? t("pageError.offline") : t("pageError.failed")}</p>
        <button
          type="button"
          onClick={() => {
            if (chunk) window.location.reload();
            else retry();
          }}
        >
          {t("actions.retry")}
        </button>
      </div>
    </>
  );
};

/**
 * One page's failure stays in its page: the header, navigation and language switcher keep
 * working, and the message says what happened in the user's language with a way to try again.
 * The shell keys it by the route, so another page starts without the error.
 */
export class PageBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error: error ?? new Error("unknown") };
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return (
      <PageFailed error={this.state.error} retry={() => this.setState({ error: undefined })} />
    );
  }
}
