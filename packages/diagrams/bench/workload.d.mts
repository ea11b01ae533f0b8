import type { WorkflowDiagram } from "../src/types/workflow/model.js";

export function generateWorkflow(size: {
  lanes: number;
  cols: number;
  nodes: number;
  edges: number;
}): WorkflowDiagram;
