import type { ReactNode } from "react";

/**
 * A button for an admin change: when `confirm` names the consequence, it asks first (the
 * browser's own dialog, accessible as it is), then runs the change.
 */
export const ActionButton = ({
  confirm,
  danger = false,
  onRun,
  children,
}: {
  confirm?: string | undefined;
  danger?: boolean;
  onRun(): void;
  children: ReactNode;
}) => (
  <button
    type="button"
    className={danger ? "secondary danger" : "secondary"}
    onClick={() => {
      if (confirm !== undefined && !window.confirm(confirm)) return;
      onRun();
    }}
  >
    {children}
  </button>
);
