// Generated sequence descriptions of any size for the benchmark and the geometry tests:
// deterministic (no randomness), valid, with nested fragments and long labels throughout.

const TYPES = ["frontend", "backend", "database", "service", "queue", "external", "security"];
const LONG = "with a label long enough to wrap over several lines in the drawing";

/**
 * A sequence between `participants` participants with `messages` messages (at least), in
 * blocks of calls and replies, loops, alt and par fragments nested three deep, notes, self-
 * messages and dividers.
 * @param {{ participants: number; messages: number }} size
 */
export function generateSequence({ participants, messages }) {
  const people = Array.from({ length: participants }, (_, i) => ({
    id: `p${i}`,
    type: TYPES[i % TYPES.length],
    label: `Participant ${i + 1}`,
    ...(i % 3 === 0 ? { sublabel: "handles its share of the work" } : {}),
  }));
  const p = (i) => `p${((i % participants) + participants) % participants}`;
  let count = 0;
  const msg = (kind, from, to, label, extra = {}) => {
    count++;
    return { kind, from, to, label: `${label} ${count}`, ...extra };
  };
  const steps = [];
  for (let k = 0; count < messages; k++) {
    const a = p(k);
    const b = p(k + 1 + (k % 3));
    const c = p(k + 5);
    switch (k % 5) {
      case 0:
        steps.push(
          msg("call", a, b, `request ${LONG}`, { activate: true }),
          msg("call", b, c, "look up", { activate: true }),
          msg("reply", c, b, "found", { deactivate: true }),
          msg("reply", b, a, "answer", { deactivate: true }),
        );
        break;
      case 1:
        steps.push({
          kind: "loop",
          guard: `for every item of the order, ${LONG}`,
          steps: [
            msg("async", a, c, "event"),
            msg("call", c, c, `check ${LONG}`),
            {
              kind: "note",
              participants: [c, p(k + 6)],
              text: `A note over two participants ${LONG}`,
            },
          ],
        });
        break;
      case 2:
        steps.push({
          kind: "alt",
          branches: [
            {
              guard: "accepted",
              steps: [
                {
                  kind: "opt",
                  guard: "when asked",
                  steps: [
                    msg("call", a, b, "confirm", { activate: true }),
                    {
                      kind: "critical",
                      guard: "inside a transaction",
                      steps: [msg("async", b, c, `store ${LONG}`)],
                    },
                    msg("reply", b, a, "confirmed", { deactivate: true }),
                  ],
                },
              ],
            },
            {
              guard: `refused, ${LONG}`,
              steps: [msg("async", b, a, "refusal", { role: "error" })],
            },
          ],
        });
        break;
      case 3:
        steps.push({
          kind: "par",
          branches: [
            { guard: "first", steps: [msg("async", a, c, "notify")] },
            { steps: [msg("async", a, b, "notify too")] },
          ],
        });
        steps.push({
          kind: "note",
          position: k % 2 ? "left" : "right",
          participants: [a],
          text: "aside",
        });
        break;
      default:
        steps.push({
          kind: "break",
          guard: "on timeout",
          steps: [msg("async", a, b, "cancel")],
        });
        if (k % 20 === 4) steps.push({ kind: "divider", label: `Part ${k / 4}` });
    }
  }
  return {
    schema_version: 2,
    diagram_type: "sequence",
    meta: { title: `Generated sequence: ${participants} participants, ${count} messages` },
    autonumber: true,
    participants: people,
    steps,
  };
}
