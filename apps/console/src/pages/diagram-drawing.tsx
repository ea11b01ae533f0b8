import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useState } from "react";
import { ScrollRegion } from "../components.js";
import type { integrationModule } from "../modules.js";

/** One SVG the build rendered of a diagram: a view of it (id "" when the type has none). */
export interface Drawing {
  id: string;
  title: string;
  caption: string;
  file: string;
  width: number;
  height: number;
}

/** How far a drawing may shrink to fit the page and stay readable; below it, it scrolls. */
const MIN_SCALE = 0.7;

/**
 * A diagram's drawing in its scroll region, and for a diagram drawn in several views (an
 * architecture's zoom levels) a radio group above it that picks the view: native radios, so
 * the arrow keys move between views and a screen reader says which one is shown.
 */
export const DiagramDrawing = ({
  name,
  title,
  language,
  drawings,
  describedBy,
}: {
  name: string;
  title: string;
  language: string;
  drawings: Drawing[];
  describedBy: string;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof integrationModule>();
  const [current, setCurrent] = useState(0);
  const drawing = drawings[current] ?? drawings[0];
  if (!drawing) return null;
  return (
    <figure>
      {drawings.length > 1 && (
        <fieldset className="view-switch">
          <legend>{t("view")}</legend>
          {drawings.map((view, i) => (
            <label key={view.id} lang={language}>
              <input
                type="radio"
                name={`view-${name}`}
                value={view.id}
                checked={i === current}
                onChange={() => setCurrent(i)}
              />
              {view.title}
            </label>
          ))}
        </fieldset>
      )}
      {/* A drawing too wide even at MIN_SCALE scrolls here, by keyboard too, not the page. */}
      <ScrollRegion labelledBy={`d-${name}`}>
        <img
          src={`${import.meta.env.BASE_URL}diagrams/${drawing.file}`}
          alt={
            drawing.title
              ? t("diagramViewLabel", { title, view: drawing.title })
              : t("diagramLabel", { title })
          }
          aria-describedby={describedBy}
          width={drawing.width}
          height={drawing.height}
          style={{ minWidth: Math.round(drawing.width * MIN_SCALE) }}
        />
      </ScrollRegion>
    </figure>
  );
};
