// The text alternative of one validated description, whatever its type: what the Integration
// page lists beside the image. Pure: the description and its type's report rows in, plain data
// out (no words of the console's own: a state without a label, an element's kind or a flow's
// classification is passed as its keyword and the page words it).

/** Title, subtitle and guided views: what every type's meta offers. */
const common = (diagram) => ({
  type: diagram.diagram_type,
  language: diagram.meta.locale ?? "en",
  title: diagram.meta.title,
  subtitle: diagram.meta.subtitle ?? "",
  views: (diagram.meta.views ?? []).map((view) => ({
    title: view.title,
    caption: view.caption ?? "",
  })),
});

const MESSAGE_KINDS = new Set(["call", "async", "reply", "create", "destroy"]);

/**
 * A sequence's messages in the order they are drawn (the order autonumber counts them), each
 * with the guards of the fragments around it, outermost first, and the dividers between them.
 */
function sequenceItems(diagram) {
  const names = new Map(diagram.participants.map((p) => [p.id, p.label]));
  const items = [];
  const walk = (steps, guards) => {
    for (const step of steps) {
      if (MESSAGE_KINDS.has(step.kind)) {
        items.push({
          kind: "message",
          number: items.filter((item) => item.kind === "message").length + 1,
          from: names.get(step.from) ?? step.from,
          to: names.get(step.to) ?? step.to,
          label: step.label ?? "",
          guards,
        });
      } else if (step.kind === "divider") {
        items.push({ kind: "divider", label: step.label });
      } else if (Array.isArray(step.branches)) {
        for (const branch of step.branches) {
          walk(branch.steps, branch.guard ? [...guards, branch.guard] : guards);
        }
      } else if (Array.isArray(step.steps)) {
        walk(step.steps, step.guard ? [...guards, step.guard] : guards);
      }
    }
  };
  walk(diagram.steps, []);
  return items;
}

/** Every state by id, composite regions included: its label, or its kind when it has none. */
function stateNames(states, into = new Map()) {
  for (const state of states) {
    into.set(state.id, state.label ? { label: state.label } : { kind: state.kind ?? "normal" });
    stateNames(state.states ?? [], into);
  }
  return into;
}

/** A lifecycle's transitions in document order, in UML words: event [guard] / action. */
function lifecycleTransitions(diagram) {
  const names = stateNames(diagram.states);
  return diagram.transitions.map((t) => ({
    from: names.get(t.from) ?? { label: t.from },
    to: names.get(t.to) ?? { label: t.to },
    text: [t.event, t.guard && `[${t.guard}]`, t.action && `/ ${t.action}`]
      .filter(Boolean)
      .join(" "),
  }));
}

/** An architecture's element as the text lists it; kinds stay keywords. */
const architectureElement = (element) => ({
  label: element.label,
  kind: element.kind,
  technology: element.technology ?? "",
  description: element.description ?? "",
});

/** A boundary with what it holds, nested as in the description (a kind absent is a system). */
const architectureBoundary = (boundary) => ({
  label: boundary.label,
  kind: boundary.kind ?? "system",
  technology: boundary.technology ?? "",
  elements: (boundary.elements ?? []).map(architectureElement),
  boundaries: (boundary.boundaries ?? []).map(architectureBoundary),
});

/** Labels by id of every element and boundary, at any depth. */
function architectureNames(elements, boundaries, into = new Map()) {
  for (const element of elements ?? []) into.set(element.id, element.label);
  for (const boundary of boundaries ?? []) {
    into.set(boundary.id, boundary.label);
    architectureNames(boundary.elements, boundary.boundaries, into);
  }
  return into;
}

/**
 * An architecture's parts by boundary (those outside every boundary first) and its
 * relationships in document order, each with its technology and kind (sync when not given).
 */
function architectureText(diagram) {
  const names = architectureNames(diagram.elements, diagram.boundaries);
  return {
    elements: (diagram.elements ?? []).map(architectureElement),
    boundaries: (diagram.boundaries ?? []).map(architectureBoundary),
    relationships: (diagram.relationships ?? []).map((r) => ({
      from: names.get(r.from) ?? r.from,
      to: names.get(r.to) ?? r.to,
      label: r.label ?? "",
      technology: r.technology ?? "",
      kind: r.kind ?? "sync",
    })),
  };
}

/**
 * A data-flow's flows in document order (the order the story is told) with protocol and
 * classification, and, for those that cross a trust boundary, the boundaries left and entered
 * as the type's own `boundaries` report found them. Its rows name a flow by its id, or
 * `f<index>` without one (the report's documented naming).
 */
function dataFlowText(diagram, crossings) {
  const names = new Map(
    [...(diagram.boundaries ?? []), ...diagram.elements].map((item) => [item.id, item.label]),
  );
  const name = (id) => names.get(id) ?? id;
  const byFlow = new Map(crossings.map((row) => [row.flow, row]));
  return diagram.flows.map((flow, index) => {
    const row = byFlow.get(flow.id ?? `f${index}`);
    return {
      from: name(flow.from),
      to: name(flow.to),
      label: flow.label,
      protocol: flow.protocol ?? "",
      classification: flow.classification,
      crosses: row ? { outOf: row.out_of.map(name), into: row.into.map(name) } : null,
    };
  });
}

/**
 * `reports` holds the rows of the type's named reports on this description (the diagram
 * tool's `validate --report`), by report name; a data-flow's text needs `boundaries`.
 */
export function describeDiagram(diagram, reports = {}) {
  const text = common(diagram);
  if (diagram.diagram_type === "sequence") return { ...text, sequence: sequenceItems(diagram) };
  if (diagram.diagram_type === "lifecycle") {
    return { ...text, transitions: lifecycleTransitions(diagram) };
  }
  if (diagram.diagram_type === "architecture") {
    return { ...text, architecture: architectureText(diagram) };
  }
  if (diagram.diagram_type === "data-flow") {
    if (!Array.isArray(reports.boundaries)) {
      throw new Error(`${diagram.meta.title}: a data-flow's text needs its "boundaries" report`);
    }
    return { ...text, flows: dataFlowText(diagram, reports.boundaries) };
  }
  return text;
}
