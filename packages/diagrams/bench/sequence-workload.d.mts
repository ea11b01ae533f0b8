import type { SequenceDiagram } from "../src/types/sequence/model.js";

export function generateSequence(size: { participants: number; messages: number }): SequenceDiagram;
