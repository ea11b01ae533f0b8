import { CORE_RULES } from "../../core/validate/catalog.js";

/**
 * Every rule a sequence problem can name: the core's and the sequence's own. The sequence
 * reference (docs/diagrams/sequence.md) lists the same ids, and test/sequence-validate.test.ts
 * proves each one both passes and fails.
 */
export const RULES = {
  ...CORE_RULES,
  "ref/participant":
    "a message end, activation, note, box member or view node naming no participant",
  "ref/message": "a view edge naming no message id",
  "box/contiguous": "a box whose participants do not stand next to each other",
  "box/shared": "a participant listed in two boxes",
  "note/side": "a note left or right of a participant that names more than one",
  "reply/no-open-call":
    "a reply that answers no open call from its receiver to its sender (and is not standalone)",
  "message/standalone": "standalone on a message that is not a reply",
  "activation/balance": "a deactivation with nothing active, or an activation never ended",
  "fragment/empty": "a fragment or fragment branch without steps",
  "fragment/options": "options on a fragment that is not critical",
  "lifeline/destroyed": "a participant taking part after the message that destroyed it",
  "lifeline/before-create": "a participant taking part before its create message, or created twice",
} as const;

export type RuleId = keyof typeof RULES;
