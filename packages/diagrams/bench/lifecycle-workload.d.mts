import type { LifecycleDiagram } from "../src/types/lifecycle/model.js";

export function generateLifecycle(size?: { states?: number; seed?: number }): LifecycleDiagram;
