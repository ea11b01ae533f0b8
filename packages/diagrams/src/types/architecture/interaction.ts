import type { Interaction } from "../../core/diagram-type.js";
import type { Card } from "../../core/model.js";
import type { ArchitectureLayout } from "./layout.js";
import type { ArchitectureDiagram } from "./model.js";
import { walkDiagram } from "./model.js";

/** No trace (an architecture has no play order); each element with a description has a card. */
export function interaction(diagram: ArchitectureDiagram, layout: ArchitectureLayout): Interaction {
  const shown = new Set(layout.elements.map((e) => e.id));
  const cards: Record<string, Card> = {};
  for (const { element } of walkDiagram(diagram).elements) {
    if (!shown.has(element.id) || !element.description) continue;
    const body = [element.description];
    if (element.technology) body.push(`Technology: ${element.technology}`);
    cards[element.id] = { title: element.label, body };
  }
  return { trace: [], traceLabel: "", cards };
}
