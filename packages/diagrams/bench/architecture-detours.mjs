// Lines gone round a boundary in the generated large architectures (bench/architecture-workload.mjs,
// default seed): per size, how many lines are longer than twice their ends' distance plus 200
// units (bench/graph-defects.mjs's "detours"), how many are longer than 1.5 times it plus 200
// (the stricter bound test/architecture-render.test.ts holds them to), the longest length beyond
// that distance, and the drawing's width ∶ height. The figures docs/benchmarks.md records for "route through, not around".
//
//   node bench/architecture-detours.mjs [sizes…]   (after npm run build; sizes: 60 100 150)
import { layoutArchitecture } from "../dist/types/architecture/layout.js";
import { validateSource } from "../dist/validate/index.js";
import { generateArchitecture } from "./architecture-workload.mjs";

/** A line's length, and its ends' Manhattan distance. */
function lengths(points) {
  let length = 0;
  for (let i = 1; i < points.length; i++) {
    length += Math.abs(points[i].x - points[i - 1].x) + Math.abs(points[i].y - points[i - 1].y);
  }
  const [a, b] = [points[0], points.at(-1)];
  return { length, direct: Math.abs(a.x - b.x) + Math.abs(a.y - b.y) };
}

const sizes = process.argv.slice(2).map(Number);
console.log(
  "| elements | lines | detours (> 2 × distance + 200) | > 1.5 × distance + 200 | longest extra length | width ∶ height |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const elements of sizes.length > 0 ? sizes : [60, 100, 150]) {
  const checked = await validateSource(JSON.stringify(generateArchitecture({ elements })));
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  const l = layoutArchitecture(checked.diagram);
  let detours = 0;
  let strict = 0;
  let extra = 0;
  for (const r of l.relationships) {
    const { length, direct } = lengths(r.points);
    if (length > 2 * direct + 200) detours++;
    if (length > 1.5 * direct + 200) strict++;
    extra = Math.max(extra, length - direct);
  }
  const ratio = (l.width / l.height).toFixed(2);
  const n = l.relationships.length;
  console.log(`| ${elements} | ${n} | ${detours} | ${strict} | ${extra.toFixed(0)} | ${ratio} |`);
}
