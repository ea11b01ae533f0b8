import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import type { DiagramText, StateName } from "../../scripts/lib/describe-diagram.mjs";
import { PageTitle, ScrollRegion } from "../components.js";
import generated from "../generated/diagrams.json";
import { integrationModule } from "../modules.js";

/** What scripts/render-diagrams.mjs writes for each diagram: its text and its drawing's size. */
type Described = DiagramText & { name: string; width: number; height: number };

const diagrams = generated as Described[];

/** How far a drawing may shrink to fit the page and stay readable; below it, it scrolls. */
const MIN_SCALE = 0.7;

const Integration = () => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof integrationModule>();
  // States without a label are named in the console's language, inside the diagram's text.
  const stateName = (state: StateName) =>
    "label" in state ? (
      state.label
    ) : (
      <em lang={i18n.language}>
        {state.kind === "initial"
          ? t("initial")
          : state.kind === "final"
            ? t("final")
            : t("choice")}
      </em>
    );
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      <p className="hint">{t("language")}</p>
      {diagrams.map((diagram) => (
        // Not a landmark of its own: the drawing's scroll region is the one its title names.
        <section key={diagram.name} className="diagram">
          <h2 id={`d-${diagram.name}`} lang={diagram.language}>
            {diagram.title}
          </h2>
          <p lang={diagram.language}>{diagram.subtitle}</p>
          <figure>
            {/* A drawing too wide even at MIN_SCALE scrolls here, by keyboard too, not the page. */}
            <ScrollRegion labelledBy={`d-${diagram.name}`}>
              <img
                src={`${import.meta.env.BASE_URL}diagrams/${diagram.name}.svg`}
                alt={t("diagramLabel", { title: diagram.title })}
                aria-describedby={`text-${diagram.name}`}
                width={diagram.width}
                height={diagram.height}
                style={{ minWidth: Math.round(diagram.width * MIN_SCALE) }}
              />
            </ScrollRegion>
          </figure>
          <div id={`text-${diagram.name}`}>
            {diagram.views.length > 0 && (
              <>
                <h3>{t("steps")}</h3>
                <ul id={`steps-${diagram.name}`} lang={diagram.language}>
                  {diagram.views.map((view) => (
                    <li key={view.title}>
                      <strong>{view.title}</strong> {view.caption}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {diagram.sequence && (
              <>
                <h3>{t("messages")}</h3>
                <ol
                  id={`messages-${diagram.name}`}
                  className="diagram-text"
                  lang={diagram.language}
                >
                  {diagram.sequence.map((item, i) =>
                    item.kind === "message" ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
                      <li key={i} value={item.number}>
                        {item.guards.map((guard) => (
                          <span key={guard} className="guard">
                            [{guard}]{" "}
                          </span>
                        ))}
                        {item.from} → {item.to}: {item.label}
                      </li>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
                      <li key={i} className="divider">
                        <em>{item.label}</em>
                      </li>
                    ),
                  )}
                </ol>
              </>
            )}
            {diagram.transitions && (
              <>
                <h3>{t("transitions")}</h3>
                <ul
                  id={`transitions-${diagram.name}`}
                  className="diagram-text"
                  lang={diagram.language}
                >
                  {diagram.transitions.map((transition, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
                    <li key={i}>
                      {stateName(transition.from)} → {stateName(transition.to)}
                      {transition.text && `: ${transition.text}`}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
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
