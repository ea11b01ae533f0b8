/** What an audited change was done to: a partner, a key, an endpoint, a user, a vocabulary set. */
export interface AuditSubject {
  type: string;
  id: string;
}

/** Which detail names an action's subject, by the action's name; the first match wins. */
const BY_ACTION: { matches: (action: string) => boolean; type: string; field: string }[] = [
  { matches: (a) => a.includes("_key_"), type: "partner_key", field: "key_id" },
  { matches: (a) => a.startsWith("webhook_"), type: "webhook_endpoint", field: "endpoint_id" },
  { matches: (a) => a.includes("partner"), type: "partner", field: "client_id" },
  { matches: (a) => a.startsWith("user_"), type: "user", field: "subject_user_id" },
];

/** Details that name a subject whatever the action, most specific first. */
const BY_DETAIL: { type: string; field: string }[] = [
  { type: "partner_key", field: "key_id" },
  { type: "webhook_endpoint", field: "endpoint_id" },
  { type: "user", field: "subject_user_id" },
  { type: "partner", field: "client_id" },
];

const idIn = (details: Record<string, unknown>, field: string): string | undefined => {
  const value = details[field];
  return typeof value === "string" && value !== "" ? value : undefined;
};

/**
 * The subject of a change from its action and details, for the helpers that log a change with
 * its details only (so the existing audit calls need no new argument): a vocabulary change is
 * named `namespace/language`, the others by the id detail their action names.
 */
export function subjectOf(
  action: string,
  details: Record<string, unknown>,
): AuditSubject | undefined {
  const namespace = idIn(details, "namespace");
  if (action.startsWith("vocabulary") && namespace !== undefined) {
    const language = idIn(details, "language");
    return { type: "vocabulary", id: language ? `${namespace}/${language}` : namespace };
  }
  for (const rule of BY_ACTION) {
    const id = idIn(details, rule.field);
    if (rule.matches(action) && id !== undefined) return { type: rule.type, id };
  }
  for (const rule of BY_DETAIL) {
    const id = idIn(details, rule.field);
    if (id !== undefined) return { type: rule.type, id };
  }
  return undefined;
}
