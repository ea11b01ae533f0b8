/** Edit distance counting an insertion, deletion, substitution or swap of neighbours as 1. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row[j] = j;
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] ?? 0;
}

const normalize = (s: string) => s.toLowerCase().replaceAll(/[-_\s]/g, "");

/**
 * The candidate a mistyped name most probably meant, or undefined when none is close:
 * equal ignoring case, `_`, `-` and spaces, or within an edit distance of a third of its length
 * (at least 1, at most 3).
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalize(input);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const distance = normalize(candidate) === wanted ? 0 : editDistance(input, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.min(3, Math.max(1, Math.floor(input.length / 3)));
  return bestDistance <= limit ? best : undefined;
}

export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const match = closest(input, candidates);
  return match === undefined ? undefined : `did you mean "${match}"?`;
}
