// The text alternative of one validated description, whatever its type: what the Integration
// page lists beside the image. Pure: the description in, plain data out (no words of the
// console's own; a state without a label is named by its kind and the page words it).

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

export function describeDiagram(diagram) {
  const text = common(diagram);
  if (diagram.diagram_type === "sequence") return { ...text, sequence: sequenceItems(diagram) };
  if (diagram.diagram_type === "lifecycle") {
    return { ...text, transitions: lifecycleTransitions(diagram) };
  }
  return text;
}
