import type { ArchitectureDiagram } from "../src/types/architecture/model.js";
import type { DataFlowDiagram } from "../src/types/data-flow/model.js";
import type { LifecycleDiagram } from "../src/types/lifecycle/model.js";

export function corpusLifecycle(seed: number): LifecycleDiagram;
export function corpusArchitecture(seed: number): ArchitectureDiagram;
export function corpusDataFlow(seed: number): DataFlowDiagram;
export const CORPUS: {
  lifecycle: typeof corpusLifecycle;
  architecture: typeof corpusArchitecture;
  "data-flow": typeof corpusDataFlow;
};
