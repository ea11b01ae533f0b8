import type { ComponentType } from "../../core/model.js";
import {
  type ArchitectureDiagram,
  type Boundary,
  type BoundaryKind,
  type Element,
  KIND_COMPONENT,
  type Relationship,
  type RelationshipKind,
  type View,
  walkDiagram,
} from "./model.js";

/** A box of one view: an element, or a boundary drawn closed as one box. */
export interface ViewLeaf {
  kind: "leaf";
  id: string;
  element: Element;
  /** For a closed boundary: how many elements it hides, and its kind. */
  hidden?: number;
  boundaryKind?: BoundaryKind;
  component: ComponentType;
}

/** A boundary drawn open, holding what is shown inside it. */
interface ViewGroup {
  kind: "group";
  id: string;
  boundary: Boundary;
  children: ViewItem[];
}

export type ViewItem = ViewLeaf | ViewGroup;

/** A line of one view: one relationship, or several joined onto closed boundaries. */
interface ViewLine {
  id: string;
  from: string;
  to: string;
  label?: string;
  technology?: string;
  kind: RelationshipKind;
  /** The relationships drawn as this line (indexes into `relationships`). */
  sources: number[];
}

export interface ProjectedView {
  view: View;
  items: ViewItem[];
  lines: ViewLine[];
}

const CLOSED_KIND: Record<BoundaryKind, Element["kind"]> = {
  enterprise: "software_system",
  system: "software_system",
  container: "container",
  cloud: "software_system",
  cluster: "software_system",
  network: "software_system",
  group: "software_system",
};

/**
 * What one view shows: the boundaries it opens (and those around them) hold their contents;
 * every other boundary becomes one box, and the relationships of what it hides are joined onto
 * that box (as Structurizr's implied relationships), one line per pair of boxes and kind.
 * Relationships inside one closed box are not drawn.
 */
export function projectView(d: ArchitectureDiagram, view: View): ProjectedView {
  const { elements, boundaries } = walkDiagram(d);
  const open = new Set<string>();
  if (view.expand === "all") for (const b of boundaries) open.add(b.boundary.id);
  else {
    for (const id of view.expand ?? []) {
      const entry = boundaries.find((b) => b.boundary.id === id);
      if (!entry) continue;
      open.add(id);
      for (const p of entry.path) open.add(p);
    }
  }
  // Where each element or boundary is drawn: itself, or the closed boundary hiding it.
  const shownAs = new Map<string, string>();
  const closedAround = (path: string[]) => path.find((p) => !open.has(p));
  for (const e of elements) shownAs.set(e.element.id, closedAround(e.path) ?? e.element.id);
  for (const b of boundaries) {
    shownAs.set(b.boundary.id, closedAround([...b.path, b.boundary.id]) ?? b.boundary.id);
  }
  const count = (b: Boundary): number =>
    (b.elements?.length ?? 0) + (b.boundaries ?? []).reduce((s, c) => s + count(c), 0);
  const leafOf = (e: Element): ViewLeaf => ({
    kind: "leaf",
    id: e.id,
    element: e,
    component: e.component_type ?? KIND_COMPONENT[e.kind],
  });
  const itemOf = (b: Boundary): ViewItem => {
    if (!open.has(b.id)) {
      const element: Element = { id: b.id, kind: CLOSED_KIND[b.kind ?? "system"], label: b.label };
      if (b.technology) element.technology = b.technology;
      if (b.hints) element.hints = b.hints;
      return {
        kind: "leaf",
        id: b.id,
        element,
        hidden: count(b),
        boundaryKind: b.kind ?? "system",
        component: "service",
      };
    }
    return {
      kind: "group",
      id: b.id,
      boundary: b,
      children: [...(b.elements ?? []).map(leafOf), ...(b.boundaries ?? []).map(itemOf)],
    };
  };
  const items = [...(d.elements ?? []).map(leafOf), ...(d.boundaries ?? []).map(itemOf)];

  const lines: ViewLine[] = [];
  const byPair = new Map<string, ViewLine>();
  (d.relationships ?? []).forEach((r: Relationship, i) => {
    const from = shownAs.get(r.from);
    const to = shownAs.get(r.to);
    if (from === undefined || to === undefined || from === to) return;
    const kind = r.kind ?? "sync";
    const key = `${from}\u0000${to}\u0000${kind}`;
    const joined = from !== r.from || to !== r.to;
    const earlier = joined ? byPair.get(key) : undefined;
    if (earlier) {
      earlier.sources.push(i);
      return;
    }
    const line: ViewLine = { id: r.id ?? `r${i}`, from, to, kind, sources: [i] };
    if (r.label) line.label = r.label;
    if (r.technology) line.technology = r.technology;
    lines.push(line);
    if (joined) byPair.set(key, line);
  });
  // A joined line says how many it stands for.
  for (const line of lines) {
    if (line.sources.length > 1) {
      const first = line.label ?? "uses";
      line.label = `${first} (+${line.sources.length - 1} more)`;
    }
  }
  return { view, items, lines };
}
