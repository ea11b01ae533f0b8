import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import type { MouseEvent } from "react";
import type { DiagramText } from "../../scripts/lib/describe-diagram.mjs";
import { PageTitle } from "../components.js";
import generated from "../generated/diagrams.json";
import { integrationModule } from "../modules.js";
import { DiagramDrawing, type Drawing } from "./diagram-drawing.js";
import { DiagramTextAlternative } from "./diagram-text.js";

/** What scripts/render-diagrams.mjs writes for each diagram: its text and its drawings. */
type Described = DiagramText & { name: string; drawings: Drawing[] };

const diagrams = generated as Described[];

/**
 * In-page links to each diagram. The hash holds the console's route, so a link scrolls to its
 * heading and moves focus there instead of replacing the hash.
 */
const Contents = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof integrationModule>();
  const go = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    const target = document.getElementById(id);
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  };
  return (
    <nav className="toc" aria-labelledby="toc-title">
      <h2 id="toc-title">{t("common:toc.label")}</h2>
      <ol>
        {diagrams.map((diagram) => (
          <li key={diagram.name} lang={diagram.language}>
            <a href={`#d-${diagram.name}`} onClick={(event) => go(event, `d-${diagram.name}`)}>
              {diagram.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
};

const Integration = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof integrationModule>();
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      <p className="hint">{t("language")}</p>
      <Contents />
      {diagrams.map((diagram) => (
        // Not a landmark of its own: the drawing's scroll region is the one its title names.
        <section key={diagram.name} className="diagram">
          <h2 id={`d-${diagram.name}`} lang={diagram.language} tabIndex={-1}>
            {diagram.title}
          </h2>
          <p lang={diagram.language}>{diagram.subtitle}</p>
          <DiagramDrawing
            name={diagram.name}
            title={diagram.title}
            language={diagram.language}
            drawings={diagram.drawings}
            describedBy={`text-${diagram.name}`}
          />
          <DiagramTextAlternative
            id={`text-${diagram.name}`}
            name={diagram.name}
            diagram={diagram}
          />
        </section>
      ))}
      <p>
        {t("guideText")} <a href="/docs">/docs</a> ({t("guide")}).
      </p>
    </>
  );
};

export const IntegrationPage = () => (
  <EnterpriseModuleProvider module={integrationModule}>
    <Integration />
  </EnterpriseModuleProvider>
);
