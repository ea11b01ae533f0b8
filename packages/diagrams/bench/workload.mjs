// Generated workflows of any size for the benchmark and the routing tests: deterministic
// (no randomness), so figures and test results can be compared between runs.

/**
 * A workflow with `lanes` lanes × `cols` columns holding `nodes` nodes and `edges` edges.
 * @param {{ lanes: number; cols: number; nodes: number; edges: number }} size
 */
export function generateWorkflow({ lanes, cols, nodes, edges }) {
  const types = [
    "frontend",
    "backend",
    "database",
    "cloud",
    "security",
    "messagebus",
    "external",
    "service",
    "queue",
    "storage",
  ];
  const roles = ["main", "branch", "async", "return", "error"];
  const laneList = Array.from({ length: lanes }, (_, i) => ({
    id: `lane${i}`,
    label: `Lane ${i + 1}`,
    ...(i % 7 === 6 ? { variant: "exception" } : {}),
  }));
  const nodeList = [];
  for (let i = 0; i < nodes; i++) {
    const lane = i % lanes;
    const col = Math.floor(i / lanes) % cols;
    nodeList.push({
      id: `n${i}`,
      lane: `lane${lane}`,
      col,
      type: types[i % types.length],
      label: `Step ${i + 1} of the flow`,
      ...(i % 3 === 0 ? { sublabel: "handles the request" } : {}),
      ...(i % 5 === 0 ? { tag: `t${i}` } : {}),
    });
  }
  const edgeList = [];
  // A spanning chain first, then deterministic extra edges spread over the grid.
  for (let i = 1; i < nodes && edgeList.length < edges; i++) {
    edgeList.push({
      id: `e${edgeList.length}`,
      from: `n${i - 1}`,
      to: `n${i}`,
      role: roles[i % roles.length],
    });
  }
  let k = 0;
  while (edgeList.length < edges) {
    const from = (k * 7) % nodes;
    const to = (k * 13 + 5) % nodes;
    k++;
    if (from === to) continue;
    edgeList.push({
      id: `e${edgeList.length}`,
      from: `n${from}`,
      to: `n${to}`,
      ...(k % 4 === 0 ? { label: `call ${k}` } : {}),
    });
  }
  return {
    schema_version: 1,
    diagram_type: "workflow",
    meta: { title: `Generated workflow: ${lanes} lanes, ${nodes} nodes, ${edges} edges` },
    lanes: laneList,
    nodes: nodeList,
    edges: edgeList,
    mainPath: ["n0", "n1", "n2"],
  };
}
