import { i18n } from "@orderline/i18n";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type ChangeEvent, type ReactNode, useState } from "react";
import { textLength } from "./lib/problem-text.js";
import type { shellModule } from "./modules.js";

/** The counter shows from this share of the limit on: out of the way until it matters. */
const COUNTER_FROM = 0.8;

type Control = "input" | "textarea";

/**
 * A labelled text field with its limit: no `maxlength` (which cuts pasted text without a word);
 * near the limit a counter says how much is left, and over it the field says it is too long
 * and is marked `data-over-limit`, which `firstOverLimit` finds so the form refuses to send.
 * A refusal from elsewhere (`error`: the gateway's, the form's) shows under the field too.
 */
export const TextField = ({
  id,
  name,
  label,
  limit,
  hint,
  error,
  control = "input",
  value,
  onValue,
  ...rest
}: {
  id: string;
  name: string;
  label: ReactNode;
  limit: number;
  hint?: ReactNode;
  error?: string | null | undefined;
  control?: Control;
  /** Controlled text, when the parent keeps it (e.g. a draft that survives a refusal). */
  value?: string;
  onValue?(value: string): void;
  type?: string;
  rows?: number;
  required?: boolean;
  autoComplete?: string;
  spellCheck?: boolean;
  placeholder?: string;
  className?: string;
  "aria-required"?: boolean | "true";
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [typed, setTyped] = useState(0);
  const length = value === undefined ? typed : textLength(value);
  const over = length > limit;
  const near = length >= limit * COUNTER_FROM;
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  const shown = over
    ? t("problems:field.overLimit", { count: limit, length: number(length) })
    : (error ?? null);
  const describedBy = [
    hint ? `${id}-hint` : "",
    near ? `${id}-count` : "",
    shown ? `${id}-error` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setTyped(textLength(event.target.value));
    onValue?.(event.target.value);
  };
  const props = {
    id,
    name,
    ...rest,
    ...(value === undefined ? {} : { value }),
    onChange,
    "aria-invalid": shown ? true : undefined,
    "aria-describedby": describedBy || undefined,
    "data-over-limit": over ? "true" : undefined,
  };
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {control === "textarea" ? <textarea {...props} /> : <input {...props} />}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {near && (
        <small id={`${id}-count`} className={over ? "counter over" : "counter"}>
          {t("problems:field.counter", { count: limit, length: number(length) })}
        </small>
      )}
      {shown && (
        <small id={`${id}-error`} className="field-error">
          {shown}
        </small>
      )}
    </>
  );
};

/**
 * The first field of the form that is over its limit, focused so the person sees why nothing
 * was sent; undefined when every field fits.
 */
export const firstOverLimit = (form: HTMLFormElement): HTMLElement | undefined => {
  const field = form.querySelector<HTMLElement>('[data-over-limit="true"]');
  field?.focus();
  return field ?? undefined;
};
