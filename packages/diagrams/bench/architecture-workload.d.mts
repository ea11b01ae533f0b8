import type { ArchitectureDiagram } from "../src/types/architecture/model.js";

export function generateArchitecture(options?: {
  elements?: number;
  seed?: number;
}): ArchitectureDiagram;
