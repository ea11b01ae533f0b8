import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { Fragment, type ReactNode, useEffect, useId, useRef, useState } from "react";
import type { shellModule } from "./modules.js";

interface SecretFact {
  label: string;
  value: string;
  testId: string;
}

/**
 * A secret the gateway shows only this once (a partner's client secret, a webhook signing
 * secret), in a panel that takes focus, with a copy button and "I have stored it" to close it.
 * The parent keeps it in state only while this is shown.
 */
export const SecretOnce = ({
  title,
  level = 2,
  facts,
  secret,
  note,
  texts = {},
  onDone,
}: {
  title: string;
  /** The heading level that fits where the panel appears. */
  level?: 2 | 3 | 4;
  /** What to show, the secret among them. */
  facts: SecretFact[];
  /** What the copy button copies. */
  secret: string;
  /** More to say, e.g. how long the replaced secret still works. */
  note?: ReactNode;
  /** Other words for what is shown once (a link rather than a secret). */
  texts?: Partial<Record<"once" | "copy" | "copied" | "done", string>>;
  onDone(): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [copied, setCopied] = useState<"copied" | "copyFailed" | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("copied");
    } catch {
      setCopied("copyFailed");
    }
  };
  const Heading = `h${level}` as const;
  return (
    <section className="secret-once" aria-labelledby={id} data-testid="secret-once">
      <Heading id={id} tabIndex={-1} ref={heading}>
        {title}
      </Heading>
      <p className="notice info">{texts.once ?? t("common:secretOnce.once")}</p>
      <dl className="facts">
        {facts.map((fact) => (
          <Fragment key={fact.testId}>
            <dt>{fact.label}</dt>
            <dd>
              <code data-testid={fact.testId}>{fact.value}</code>
            </dd>
          </Fragment>
        ))}
      </dl>
      {note}
      <p className="buttons">
        <button type="button" onClick={() => void copy()}>
          {texts.copy ?? t("common:secretOnce.copy")}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {texts.done ?? t("common:secretOnce.done")}
        </button>
      </p>
      <p role="status">
        {copied === "copied" && texts.copied
          ? texts.copied
          : copied && t(`common:secretOnce.${copied}`)}
      </p>
    </section>
  );
};
