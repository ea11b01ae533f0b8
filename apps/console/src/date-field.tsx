import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useState } from "react";
import { dateShape, formatLocalDate, parseLocalDate } from "./lib/local-date.js";
import type { shellModule } from "./modules.js";

/**
 * A date typed in the console's language (`TT.MM.JJJJ` in German, `dd/mm/yyyy` in Indonesian):
 * a native date input shows the browser's format whatever the console's language. The form
 * gets the ISO date from a hidden input named `name`; a text that is no date is said at the
 * field and marked `data-date-invalid`, for the form to refuse (see `firstInvalidDate`).
 */
export const DateField = ({
  id,
  name,
  label,
  defaultValue,
  error,
}: {
  id: string;
  name: string;
  label: string;
  /** ISO `YYYY-MM-DD`. */
  defaultValue?: string | undefined;
  error?: string | null | undefined;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const language = i18n.language;
  const [typed, setTyped] = useState(() => ({
    text: formatLocalDate(defaultValue ?? "", language),
    language,
  }));
  // The language changed: the date typed so far is written again in the new one's form.
  if (typed.language !== language) {
    const before = parseLocalDate(typed.text, typed.language);
    setTyped({ text: before ? formatLocalDate(before, language) : typed.text, language });
  }
  const text = typed.text;
  const setText = (next: string) => setTyped({ text: next, language });
  const [touched, setTouched] = useState(false);
  const iso = parseLocalDate(text, language);
  const { order, separator } = dateShape(language);
  const pattern = order.map((part) => t(`common:date.${part}`)).join(separator);
  const example = formatLocalDate("2026-11-26", language);
  const shown = touched && iso === undefined ? t("common:date.invalid", { pattern }) : error;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="numeric"
        autoComplete="off"
        placeholder={pattern}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => setTouched(true)}
        onKeyDown={(event) => {
          if (event.key === "Enter") setTouched(true);
        }}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`${id}-format${shown ? ` ${id}-error` : ""}`}
        data-date-invalid={iso === undefined ? "true" : undefined}
      />
      <input type="hidden" name={name} value={iso ?? ""} />
      <small id={`${id}-format`} className="visually-hidden">
        {t("common:date.format", { pattern, example })}
      </small>
      {shown && (
        <small id={`${id}-error`} className="field-error">
          {shown}
        </small>
      )}
    </>
  );
};

/** The first date field whose text is no date, focused; undefined when all are dates. */
export const firstInvalidDate = (form: HTMLFormElement): HTMLElement | undefined => {
  const field = form.querySelector<HTMLElement>('[data-date-invalid="true"]');
  field?.focus();
  return field ?? undefined;
};
