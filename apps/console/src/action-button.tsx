import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type ReactNode, useState } from "react";
import { Dialog } from "./dialog.js";
import type { shellModule } from "./modules.js";

/**
 * A button for an admin change. When `confirm` names the consequence it asks first, in the
 * console's own dialog (labelled by the question, focus kept inside, Escape or "Keep it"
 * leave everything as it was), then runs the change; the safe choice comes first and has
 * the focus, so Enter alone never destroys anything.
 */
export const ActionButton = ({
  confirm,
  confirmLabel,
  danger = false,
  onRun,
  children,
}: {
  confirm?: string | undefined;
  /** The dialog's go-ahead button; the button's own text when not given. */
  confirmLabel?: string;
  danger?: boolean;
  onRun(): void;
  children: ReactNode;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        className={danger ? "secondary danger" : "secondary"}
        onClick={() => (confirm === undefined ? onRun() : setAsking(true))}
      >
        {children}
      </button>
      {asking && confirm !== undefined && (
        <Dialog title={confirm} onClose={() => setAsking(false)}>
          {(close) => (
            <p className="buttons">
              <button type="button" className="secondary" onClick={close}>
                {t("common:confirm.keep")}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => {
                  close();
                  onRun();
                }}
              >
                {confirmLabel ?? children}
              </button>
            </p>
          )}
        </Dialog>
      )}
    </>
  );
};
