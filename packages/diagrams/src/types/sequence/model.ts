/**
 * The sequence description format (diagram_type "sequence"), as TypeScript types. The JSON
 * Schema in `schema/sequence.schema.json` is the authority; these types describe the same
 * shapes. Reference for writers: docs/diagrams/sequence.md.
 */
import type { BrandMark, ComponentType, EdgeRole, Id, Meta } from "../../core/model.js";

export interface Participant {
  id: Id;
  type: ComponentType;
  label: string;
  sublabel?: string;
  brand?: BrandMark;
}

/** A labelled box drawn behind neighbouring participants (a system, a trust zone). */
export interface ParticipantBox {
  id: Id;
  label: string;
  /** At least one; they must stand next to each other in `participants`. */
  participants: Id[];
}

export const MESSAGE_KINDS = ["call", "async", "reply", "create", "destroy"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const FRAGMENT_KINDS = ["opt", "loop", "critical", "break"] as const;
type FragmentKind = (typeof FRAGMENT_KINDS)[number];

export const BRANCHED_KINDS = ["alt", "par"] as const;
type BranchedKind = (typeof BRANCHED_KINDS)[number];

export interface Message {
  kind: MessageKind;
  /** Names the message in guided views (meta.views[].edges). */
  id?: Id;
  from: Id;
  /** Equal to `from` for a self-message. */
  to: Id;
  label?: string;
  role?: EdgeRole;
  /** Starts an activation on the receiver where the message arrives. */
  activate?: boolean;
  /** Ends the sender's innermost activation where the message leaves. */
  deactivate?: boolean;
  /** A reply that answers no open call (Mermaid's `-->>` used freely): drawn as any reply. */
  standalone?: boolean;
}

interface Activation {
  kind: "activate" | "deactivate";
  participant: Id;
}

export interface Note {
  kind: "note";
  /** over: across every participant listed; left / right: beside the one participant listed. */
  position?: "over" | "left" | "right";
  participants: Id[];
  text: string;
}

export interface Divider {
  kind: "divider";
  label: string;
}

export interface Fragment {
  kind: FragmentKind;
  id?: Id;
  /** The condition, shown as [guard]. */
  guard?: string;
  steps: Step[];
  /** critical only: what runs instead when the critical part cannot (Mermaid's `option`). */
  options?: Branch[];
}

export interface Branch {
  guard?: string;
  steps: Step[];
}

export interface BranchedFragment {
  kind: BranchedKind;
  id?: Id;
  branches: Branch[];
}

export type Step = Message | Activation | Note | Divider | Fragment | BranchedFragment;

export interface SequenceDiagram {
  schema_version: 1 | 2;
  diagram_type: "sequence";
  meta: Meta;
  /** Numbers the messages 1, 2, 3… in the order they are drawn. */
  autonumber?: boolean;
  participants: Participant[];
  boxes?: ParticipantBox[];
  steps: Step[];
}

export const isMessage = (s: Step): s is Message =>
  (MESSAGE_KINDS as readonly string[]).includes(s.kind);
export const isFragment = (s: Step): s is Fragment =>
  (FRAGMENT_KINDS as readonly string[]).includes(s.kind);
export const isBranched = (s: Step): s is BranchedFragment =>
  (BRANCHED_KINDS as readonly string[]).includes(s.kind);

/** A frame's branches in drawing order: a fragment's steps, then its options (critical). */
export function frameBranches(s: Fragment | BranchedFragment): Branch[] {
  return isFragment(s) ? [s, ...(s.options ?? [])] : s.branches;
}
