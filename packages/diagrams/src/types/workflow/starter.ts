import type { WorkflowDiagram } from "./model.js";

/** The starter description; test/validate-cli.test.ts proves it validates. */
export const STARTER: WorkflowDiagram = {
  schema_version: 2,
  diagram_type: "workflow",
  meta: {
    title: "My workflow",
    subtitle: "Replace these lanes, nodes and edges with your own",
    locale: "en",
    visual_preset: "classic",
    animation: "trace",
  },
  lanes: [
    { id: "client", label: "Client" },
    { id: "service", label: "Service" },
    { id: "data", label: "Data" },
  ],
  phases: [
    { id: "request", label: "Request", fromCol: 0, toCol: 1 },
    { id: "handle", label: "Handle", fromCol: 2, toCol: 3 },
  ],
  nodes: [
    { id: "start", lane: "client", col: 0, type: "start", label: "Start" },
    { id: "app", lane: "client", col: 1, type: "frontend", label: "Web app" },
    {
      id: "api",
      lane: "service",
      col: 2,
      type: "backend",
      label: "API",
      sublabel: "validates input",
    },
    { id: "db", lane: "data", col: 3, type: "database", label: "Database" },
  ],
  edges: [
    { id: "open", from: "start", to: "app", role: "main" },
    { id: "request", from: "app", to: "api", label: "request", role: "main" },
    { id: "write", from: "api", to: "db", label: "write", role: "main" },
    { id: "reply", from: "api", to: "app", label: "response", role: "return" },
  ],
  mainPath: ["start", "app", "api", "db"],
  semanticChecks: { allowedRoots: ["start"], allowedTerminals: ["db"] },
};
