import type { WorkflowDiagram } from "../src/schema/types.js";

export function generateWorkflow(size: {
  lanes: number;
  cols: number;
  nodes: number;
  edges: number;
}): WorkflowDiagram;
