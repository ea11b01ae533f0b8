import type { DataFlowDiagram } from "../src/types/data-flow/model.js";

export function generateDataFlow(options?: { elements?: number; seed?: number }): DataFlowDiagram;
