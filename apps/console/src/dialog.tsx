import { type KeyboardEvent, type ReactNode, useId, useLayoutEffect, useRef } from "react";

const FOCUSABLE =
  "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex='-1'])";

/**
 * Tab from the last control goes to the first, Shift+Tab from the first to the last: the
 * platform makes the page behind inert but lets Tab leave for the browser's own controls.
 */
const keepFocusInside = (event: KeyboardEvent<HTMLDialogElement>) => {
  if (event.key !== "Tab") return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const leaving = event.shiftKey
    ? document.activeElement === first || !event.currentTarget.contains(document.activeElement)
    : document.activeElement === last;
  if (!leaving) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
};

/**
 * A modal dialog on the platform's `<dialog>`: `showModal()` makes the rest of the page inert,
 * Tab cycles inside it, Escape closes it, and closing gives focus back to the control that
 * opened it. Rendered only while open: the parent unmounts it in `onClose`, which runs however
 * it closes (Escape, `close()`, or the parent unmounting it first).
 */
export const Dialog = ({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose(): void;
  children(close: () => void): ReactNode;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The latest onClose, without reopening the dialog when the parent renders again.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  // Layout effect: the cleanup must close the dialog before React removes it from the page,
  // or the browser cannot give focus back.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    dialog.showModal();
    // The browser fires "close" a task after close(): when the effect ran again in between
    // (StrictMode's second run in development, a Suspense boundary showing its content again),
    // the dialog is open again and that late event must not close it.
    const closed = () => {
      if (!dialog.open) onCloseRef.current();
    };
    dialog.addEventListener("close", closed);
    return () => {
      dialog.removeEventListener("close", closed);
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} className="dialog" onKeyDown={keepFocusInside}>
      <h2 id={titleId}>{title}</h2>
      {children(() => ref.current?.close())}
    </dialog>
  );
};
