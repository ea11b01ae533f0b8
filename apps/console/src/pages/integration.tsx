import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { PageTitle } from "../components.js";
import diagrams from "../generated/diagrams.json";
import { integrationModule } from "../modules.js";

/**
 * The project's diagrams, rendered to SVG by the diagram tool when the console is built
 * (scripts/render-diagrams.mjs), each with its steps as text: the image's text alternative.
 */
const Integration = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof integrationModule>();
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      {diagrams.map((diagram) => (
        <section key={diagram.name} className="diagram" aria-labelledby={`d-${diagram.name}`}>
          <h2 id={`d-${diagram.name}`} lang={diagram.language}>
            {diagram.title}
          </h2>
          <p lang={diagram.language}>{diagram.subtitle}</p>
          <figure>
            <img
              src={`${import.meta.env.BASE_URL}diagrams/${diagram.name}.svg`}
              alt={t("diagramLabel", { title: diagram.title })}
              aria-describedby={`steps-${diagram.name}`}
            />
          </figure>
          <h3>{t("steps")}</h3>
          <p className="hint">{t("language")}</p>
          <ul id={`steps-${diagram.name}`} lang={diagram.language}>
            {diagram.views.map((view) => (
              <li key={view.title}>
                <strong>{view.title}</strong> {view.caption}
              </li>
            ))}
          </ul>
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
