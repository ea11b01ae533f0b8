import type { ArchitectureDiagram } from "./model.js";

/** What `init --type architecture` writes: valid, showing boundaries, kinds and two views. */
export const starter: ArchitectureDiagram = {
  schema_version: 2,
  diagram_type: "architecture",
  meta: { title: "Online shop", direction: "right" },
  elements: [
    { id: "customer", kind: "person", label: "Customer", description: "Buys from the shop" },
    {
      id: "payments",
      kind: "external_system",
      label: "Payment provider",
      technology: "REST",
    },
  ],
  boundaries: [
    {
      id: "shop",
      kind: "system",
      label: "Shop",
      elements: [
        {
          id: "web",
          kind: "container",
          label: "Web app",
          technology: "React",
          component_type: "frontend",
        },
        { id: "api", kind: "container", label: "API", technology: "Fastify" },
        { id: "db", kind: "database", label: "Orders", technology: "PostgreSQL" },
        { id: "jobs", kind: "queue", label: "Jobs", technology: "Redis" },
      ],
    },
  ],
  relationships: [
    { from: "customer", to: "web", label: "browses and buys", technology: "HTTPS" },
    { from: "web", to: "api", label: "calls", technology: "JSON/HTTPS" },
    { from: "api", to: "db", label: "reads and writes", technology: "SQL", kind: "data" },
    { from: "api", to: "jobs", label: "queues e-mails", kind: "async" },
    { from: "api", to: "payments", label: "charges cards", technology: "HTTPS" },
  ],
  views: [
    { id: "context", title: "System context" },
    { id: "containers", title: "Shop containers", expand: ["shop"] },
  ],
};
