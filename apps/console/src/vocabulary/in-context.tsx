import { inContextKeysOf, setInContextMode } from "@orderline/i18n";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import type { shellModule } from "../modules.js";
import type { WordPlace } from "./word-dialog.js";

// The editor loads when first opened: the first load of the console carries none of it.
const WordDialog = lazy(() => import("./word-dialog.js").then((m) => ({ default: m.WordDialog })));

/** Attributes that carry translated text a user may click on. */
const TEXT_ATTRIBUTES = ["aria-label", "placeholder", "title", "alt"];

/** The marked keys of an element's own text (not its children's) and its text attributes. */
const ownKeys = (element: Element) => {
  const own = [...element.childNodes]
    .filter((node) => node.nodeType === Node.TEXT_NODE)
    .map((node) => node.textContent ?? "");
  const attributes = TEXT_ATTRIBUTES.map((name) => element.getAttribute(name) ?? "");
  return inContextKeysOf([...own, ...attributes].join("\n"));
};

/**
 * The translated string under a click: the clicked element's own text, else its parents' (a
 * click on an icon inside a button), else all its text when that names one key only.
 */
const wordAt = (target: Element): WordPlace | undefined => {
  let element: Element | null = target;
  for (let depth = 0; element && depth < 4; depth++, element = element.parentElement) {
    const [found] = ownKeys(element);
    if (found) return found;
  }
  const all = inContextKeysOf(target.textContent ?? "");
  return all.length === 1 ? all[0] : undefined;
};

/**
 * The in-context mode for tenant admins: a switch in the header; while it is on, every
 * translated string carries its key (the engine's marks) and a click on any text opens the
 * word editor for it instead of doing what the click would do. The dialog and the switch itself
 * keep working normally.
 */
export const InContextEditing = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [on, setOn] = useState(false);
  const [place, setPlace] = useState<WordPlace | null>(null);

  useEffect(() => {
    setInContextMode(on);
    // Lets the style sheet outline what can be clicked.
    document.documentElement.toggleAttribute("data-in-context", on);
    return () => {
      setInContextMode(false);
      document.documentElement.removeAttribute("data-in-context");
    };
  }, [on]);

  useEffect(() => {
    if (!on) return;
    const open = (event: MouseEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || target.closest("dialog, [data-in-context-ignore]")) {
        return;
      }
      const found = wordAt(target);
      if (!found) return;
      // The click edits the word; the link or button under it does not act.
      event.preventDefault();
      event.stopPropagation();
      setPlace(found);
    };
    document.addEventListener("click", open, true);
    return () => document.removeEventListener("click", open, true);
  }, [on]);

  return (
    <div className="in-context" data-in-context-ignore>
      <button type="button" aria-pressed={on} onClick={() => setOn(!on)}>
        {on ? t("inContext.stop") : t("inContext.start")}
      </button>
      <p className="visually-hidden" role="status">
        {on ? t("inContext.banner") : ""}
      </p>
      {on && (
        <p className="in-context-banner" aria-hidden="true">
          {t("inContext.banner")}
        </p>
      )}
      {/* In the body, not here: on a phone this switch sits in the menu, which is closed
          while the page's words are clicked, and would hide the dialog with it. */}
      {place &&
        createPortal(
          <Suspense fallback={null}>
            <WordDialog place={place} onClose={() => setPlace(null)} />
          </Suspense>,
          document.body,
        )}
    </div>
  );
};
