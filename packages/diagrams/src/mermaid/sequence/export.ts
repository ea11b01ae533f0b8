/**
 * A sequence description → Mermaid `sequenceDiagram`. What Mermaid cannot say (component
 * types, sublabels, brands, roles, ids, dividers, meta) goes into `%% @orderline` annotations,
 * which the importer reads back, so export → import gives the same description.
 */
import type { Message, Participant, SequenceDiagram, Step } from "../../types/sequence/model.js";
import { isBranched, isFragment, isMessage } from "../../types/sequence/model.js";
import {
  annotationFor,
  annotationLine,
  carried,
  diagramNoteLine,
  encodeText,
  idsLine,
  mermaidIds,
  titleFrontMatter,
} from "../source.js";

const ARROW: Record<Message["kind"], string> = {
  call: "->>",
  async: "-)",
  reply: "-->>",
  create: "->>",
  destroy: "-x",
};

export function exportSequence(d: SequenceDiagram): string {
  const ids = mermaidIds(d.participants.map((p) => p.id));
  const created = new Set<string>();
  const walk = (steps: Step[]): void => {
    for (const s of steps) {
      if (s.kind === "create") created.add(s.to);
      if (isFragment(s)) walk(s.steps);
      if (isBranched(s)) for (const b of s.branches) walk(b.steps);
      if (isFragment(s)) for (const o of s.options ?? []) walk(o.steps);
    }
  };
  walk(d.steps);

  const declare = (p: Participant, indent: string, create = false): string[] => {
    const word = p.type === "user" ? "actor" : "participant";
    const read = { id: p.id, type: p.type === "user" ? "user" : "service", label: p.label };
    const alias = p.label === ids.of(p.id) ? "" : ` as ${encodeText(p.label)}`;
    return [
      ...annotationLine(indent, annotationFor(p, read)),
      `${indent}${create ? "create " : ""}${word} ${ids.of(p.id)}${alias}`,
    ];
  };

  const out: string[] = [
    ...titleFrontMatter(d.meta.title),
    "sequenceDiagram",
    ...idsLine(ids.back),
  ];
  const read = {
    ...carried(d, ["participants", "steps", "boxes"]),
    meta: { title: d.meta.title },
    autonumber: d.autonumber ? true : undefined,
  };
  out.push(...diagramNoteLine(d, read));
  if (d.autonumber) out.push("  autonumber");

  const boxOf = new Map<string, NonNullable<SequenceDiagram["boxes"]>[number]>();
  for (const box of d.boxes ?? []) for (const p of box.participants) boxOf.set(p, box);
  let openBox: string | undefined;
  const boxIndex = new Map((d.boxes ?? []).map((b, i) => [b.id, i + 1]));
  for (const p of d.participants) {
    if (created.has(p.id)) continue;
    const box = boxOf.get(p.id);
    if (openBox && box?.id !== openBox) {
      out.push("  end");
      openBox = undefined;
    }
    if (box && openBox !== box.id) {
      const readBox = {
        id: `box${boxIndex.get(box.id)}`,
        label: box.label,
        participants: box.participants,
      };
      out.push(...annotationLine("  ", annotationFor(box, readBox)));
      out.push(`  box ${encodeText(box.label)}`);
      openBox = box.id;
    }
    out.push(...declare(p, openBox ? "    " : "  "));
  }
  if (openBox) out.push("  end");

  const participant = (id: string) => d.participants.find((p) => p.id === id);
  const active = new Map<string, number>();
  const emit = (steps: Step[], indent: string): void => {
    for (const s of steps) {
      if (isMessage(s)) {
        if (s.kind === "create") {
          const p = participant(s.to);
          if (p) out.push(...declare(p, indent, true));
        }
        if (s.kind === "destroy") out.push(`${indent}destroy ${ids.of(s.to)}`);
        // Mermaid reads activations in text order, across alt branches too: a deactivation
        // of a lifeline it holds inactive would be refused, so that one stays in the annotation.
        const mark = s.activate ? "+" : s.deactivate && (active.get(s.from) ?? 0) > 0 ? "-" : "";
        if (mark === "+") active.set(s.to, (active.get(s.to) ?? 0) + 1);
        if (mark === "-") active.set(s.from, (active.get(s.from) ?? 1) - 1);
        const read: Message = { kind: s.kind, from: s.from, to: s.to };
        if (s.label) read.label = s.label;
        if (mark === "+") read.activate = true;
        if (mark === "-") read.deactivate = true;
        // The importer reads a dotted arrow answering no open call as a standalone reply.
        if (s.standalone) read.standalone = true;
        out.push(...annotationLine(indent, annotationFor(s, read)));
        out.push(
          `${indent}${ids.of(s.from)}${ARROW[s.kind]}${mark}${ids.of(s.to)}: ${encodeText(s.label ?? "")}`,
        );
      } else if (s.kind === "activate" || s.kind === "deactivate") {
        const depth = active.get(s.participant) ?? 0;
        active.set(s.participant, s.kind === "activate" ? depth + 1 : Math.max(0, depth - 1));
        out.push(`${indent}${s.kind} ${ids.of(s.participant)}`);
      } else if (s.kind === "note" || s.kind === "divider") {
        const who =
          s.kind === "note"
            ? s.participants
            : [d.participants[0]?.id, d.participants[d.participants.length - 1]?.id].filter(
                (x): x is string => x !== undefined,
              );
        const unique = who.filter((w, i) => who.indexOf(w) === i);
        const position = s.kind === "note" ? (s.position ?? "over") : "over";
        const text = s.kind === "note" ? s.text : s.label;
        const read: Step = { kind: "note", participants: unique, text };
        if (position !== "over") read.position = position;
        out.push(...annotationLine(indent, annotationFor(s, read)));
        const where = position === "over" ? "over" : `${position} of`;
        out.push(`${indent}Note ${where} ${unique.map(ids.of).join(",")}: ${encodeText(text)}`);
      } else if (isFragment(s)) {
        const read = { kind: s.kind, guard: s.guard, steps: s.steps, options: s.options };
        out.push(...annotationLine(indent, annotationFor(s, read)));
        out.push(`${indent}${s.kind}${s.guard ? ` ${encodeText(s.guard)}` : ""}`);
        emit(s.steps, `${indent}  `);
        for (const o of s.options ?? []) {
          out.push(`${indent}option${o.guard ? ` ${encodeText(o.guard)}` : ""}`);
          emit(o.steps, `${indent}  `);
        }
        out.push(`${indent}end`);
      } else if (isBranched(s)) {
        const read = { kind: s.kind, branches: s.branches };
        out.push(...annotationLine(indent, annotationFor(s, read)));
        s.branches.forEach((b, i) => {
          const word = i === 0 ? s.kind : s.kind === "alt" ? "else" : "and";
          out.push(`${indent}${word}${b.guard ? ` ${encodeText(b.guard)}` : ""}`);
          emit(b.steps, `${indent}  `);
        });
        out.push(`${indent}end`);
      }
    }
  };
  emit(d.steps, "  ");
  return `${out.join("\n")}\n`;
}
