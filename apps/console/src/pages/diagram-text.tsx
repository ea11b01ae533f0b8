import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import type { ReactNode } from "react";
import type {
  ArchitectureBoundary,
  ArchitectureElement,
  ArchitectureText,
  DataFlowItem,
  DiagramText,
  SequenceItem,
  StateName,
} from "../../scripts/lib/describe-diagram.mjs";
import type { integrationModule } from "../modules.js";

// A diagram's text alternative, by type: the lists are in the diagram's language, and the
// console's own words inside them (a state's kind, an element's kind, a classification) in the
// console's, each marked with its `lang`.

const useWords = () => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof integrationModule>();
  /** The console's word for a format keyword, marked as the console's language. */
  const word = (key: string): ReactNode => <span lang={i18n.language}>{t(key)}</span>;
  return { t, word, language: i18n.language };
};

/** "(kind · technology)": the kind in the console's words, the technology as written. */
const KindTag = ({ kind, technology }: { kind: ReactNode; technology: string }) => (
  <span className="kind">
    ({kind}
    {technology && ` · ${technology}`})
  </span>
);

const GuidedViews = ({ name, diagram }: { name: string; diagram: DiagramText }) => {
  const { t } = useWords();
  return (
    <>
      <h3>{t("steps")}</h3>
      <ul id={`steps-${name}`} lang={diagram.language}>
        {diagram.views.map((view) => (
          <li key={view.title}>
            <strong>{view.title}</strong> {view.caption}
          </li>
        ))}
      </ul>
    </>
  );
};

const Messages = ({
  name,
  items,
  language,
}: {
  name: string;
  items: SequenceItem[];
  language: string;
}) => {
  const { t } = useWords();
  return (
    <>
      <h3>{t("messages")}</h3>
      <ol id={`messages-${name}`} className="diagram-text" lang={language}>
        {items.map((item, i) =>
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
  );
};

const Transitions = ({
  name,
  transitions,
  language,
}: {
  name: string;
  transitions: NonNullable<DiagramText["transitions"]>;
  language: string;
}) => {
  const { t, language: ui } = useWords();
  // States without a label are named in the console's language, inside the diagram's text.
  const stateName = (state: StateName) =>
    "label" in state ? (
      state.label
    ) : (
      <em lang={ui}>
        {state.kind === "initial"
          ? t("initial")
          : state.kind === "final"
            ? t("final")
            : t("choice")}
      </em>
    );
  return (
    <>
      <h3>{t("transitions")}</h3>
      <ul id={`transitions-${name}`} className="diagram-text" lang={language}>
        {transitions.map((transition, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
          <li key={i}>
            {stateName(transition.from)} → {stateName(transition.to)}
            {transition.text && `: ${transition.text}`}
          </li>
        ))}
      </ul>
    </>
  );
};

const Element = ({ element }: { element: ArchitectureElement }) => {
  const { word } = useWords();
  return (
    <li>
      <strong>{element.label}</strong>{" "}
      <KindTag kind={word(`elementKind.${element.kind}`)} technology={element.technology} />
      {element.description && `: ${element.description}`}
    </li>
  );
};

/** A boundary with what it holds, nested as the drawing nests it. */
const Boundary = ({ boundary }: { boundary: ArchitectureBoundary }) => {
  const { word } = useWords();
  return (
    <li className="boundary">
      <strong>{boundary.label}</strong>{" "}
      <KindTag kind={word(`boundaryKind.${boundary.kind}`)} technology={boundary.technology} />
      <Parts elements={boundary.elements} boundaries={boundary.boundaries} />
    </li>
  );
};

const Parts = ({
  id,
  elements,
  boundaries,
}: {
  id?: string;
  elements: ArchitectureElement[];
  boundaries: ArchitectureBoundary[];
}) => (
  <ul id={id} className="diagram-text">
    {elements.map((element) => (
      <Element key={element.label} element={element} />
    ))}
    {boundaries.map((boundary) => (
      <Boundary key={boundary.label} boundary={boundary} />
    ))}
  </ul>
);

const Architecture = ({
  name,
  architecture,
  language,
}: {
  name: string;
  architecture: ArchitectureText;
  language: string;
}) => {
  const { t, word } = useWords();
  return (
    <>
      <h3>{t("parts")}</h3>
      <div lang={language}>
        <Parts
          id={`parts-${name}`}
          elements={architecture.elements}
          boundaries={architecture.boundaries}
        />
      </div>
      <h3>{t("relationships")}</h3>
      <ul id={`relationships-${name}`} className="diagram-text" lang={language}>
        {architecture.relationships.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
          <li key={i}>
            {r.from} → {r.to}
            {r.label && `: ${r.label}`}
            {r.technology && ` [${r.technology}]`} ({word(`relationshipKind.${r.kind}`)})
          </li>
        ))}
      </ul>
    </>
  );
};

const Flows = ({
  name,
  flows,
  language,
}: {
  name: string;
  flows: DataFlowItem[];
  language: string;
}) => {
  const { t, word } = useWords();
  return (
    <>
      <h3>{t("flows")}</h3>
      <p>{t("flowsHint")}</p>
      <ol id={`flows-${name}`} className="diagram-text flows" lang={language}>
        {flows.map((flow, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
          <li key={i} className={flow.crosses ? "crossing" : undefined}>
            {flow.from} → {flow.to}: {flow.label} ({flow.protocol && `${flow.protocol}, `}
            {word(`classification.${flow.classification}`)})
            {flow.crosses && (
              <span className="crosses">
                {" "}
                — <strong>{word("crosses")}</strong>:{" "}
                {flow.crosses.outOf.length > 0 && (
                  <>
                    {word("leaves")} {flow.crosses.outOf.join(", ")}
                  </>
                )}
                {flow.crosses.outOf.length > 0 && flow.crosses.into.length > 0 && "; "}
                {flow.crosses.into.length > 0 && (
                  <>
                    {word("enters")} {flow.crosses.into.join(", ")}
                  </>
                )}
              </span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
};

/** Everything the drawing says, as lists: the guided views, then what the type has. */
export const DiagramTextAlternative = ({
  id,
  name,
  diagram,
}: {
  id: string;
  name: string;
  diagram: DiagramText;
}) => (
  <div id={id}>
    {diagram.views.length > 0 && <GuidedViews name={name} diagram={diagram} />}
    {diagram.sequence && (
      <Messages name={name} items={diagram.sequence} language={diagram.language} />
    )}
    {diagram.transitions && (
      <Transitions name={name} transitions={diagram.transitions} language={diagram.language} />
    )}
    {diagram.architecture && (
      <Architecture name={name} architecture={diagram.architecture} language={diagram.language} />
    )}
    {diagram.flows && <Flows name={name} flows={diagram.flows} language={diagram.language} />}
  </div>
);
