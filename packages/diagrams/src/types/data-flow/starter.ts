import type { DataFlowDiagram } from "./model.js";

/** What `init --type data-flow` writes: valid, with every kind of element, nested boundaries
 * and each classification once. */
export const starter: DataFlowDiagram = {
  schema_version: 2,
  diagram_type: "data-flow",
  meta: { title: "Customer sign-in", direction: "right" },
  boundaries: [
    { id: "internet", label: "Internet" },
    { id: "service", label: "Our service", sublabel: "TLS ends here" },
    { id: "data", label: "Data tier", boundary: "service" },
  ],
  elements: [
    {
      id: "customer",
      kind: "entity",
      label: "Customer",
      boundary: "internet",
      component_type: "user",
    },
    { id: "sign-in", kind: "process", label: "Sign in", boundary: "service" },
    { id: "accounts", kind: "store", label: "Accounts", sublabel: "PostgreSQL", boundary: "data" },
    { id: "audit", kind: "store", label: "Audit log", boundary: "data" },
    { id: "status", kind: "process", label: "Status page", boundary: "service" },
  ],
  flows: [
    {
      id: "login",
      from: "customer",
      to: "sign-in",
      label: "E-mail and password",
      protocol: "HTTPS",
      classification: "personal",
    },
    {
      from: "accounts",
      to: "sign-in",
      label: "Password hash",
      protocol: "SQL over TLS",
      classification: "confidential",
    },
    { from: "sign-in", to: "audit", label: "Sign-in event", classification: "internal" },
    {
      from: "sign-in",
      to: "customer",
      label: "Session cookie",
      protocol: "HTTPS",
      classification: "confidential",
    },
    { from: "audit", to: "status", label: "Sign-in counts", classification: "internal" },
    {
      from: "status",
      to: "customer",
      label: "Service status",
      protocol: "HTTPS",
      classification: "public",
    },
  ],
};
