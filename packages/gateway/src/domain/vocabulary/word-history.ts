import type { Clock } from "../../lib/clock.js";
import { ApiError } from "../../problems/api-error.js";
import type { TenantStore, VocabularyChangeRecord } from "../../store/tenant-store.js";
import { changesBetween, leavesOf, type Overrides, type OverridesChanges } from "./overrides.js";

/** Where a write goes and who makes it. */
interface WritePlace {
  tenantId: string;
  namespace: string;
  language: string;
  updatedBy: string | null;
  change: VocabularyChangeRecord["change"];
}

/** A write that another one overtook is tried again on top of it, this many times in all. */
const ATTEMPTS = 5;

/** One history row per key the write added, changed or removed. */
const historyOf = (
  place: WritePlace,
  after: Overrides,
  changes: OverridesChanges,
  at: number,
): VocabularyChangeRecord[] => {
  const next = leavesOf(after);
  return [...changes.added, ...changes.changed, ...changes.removed].map((key) => ({
    tenantId: place.tenantId,
    namespace: place.namespace,
    language: place.language,
    key,
    text: next.get(key) ?? null,
    change: place.change,
    changedAt: at,
    changedBy: place.updatedBy,
  }));
};

/** The tree a write would store, for the bounds it must keep; throws to refuse the write. */
export type WriteBound = (write: TreeWrite) => Promise<void> | void;

/** A tree before and after a write, each also as its JSON ("" when there was none). */
export interface TreeWrite {
  before: Overrides;
  beforeJson: string;
  after: Overrides;
  json: string;
}

/**
 * Changes one language's overrides of a namespace through `edit` (from the tree stored now to
 * the next), recording each changed key's history in the same transaction. The write is a
 * compare-and-set: when another write lands between the read and this write, `edit` runs again
 * on top of it, so neither is lost (two admins renaming different words at once keep both).
 * `bound` sees every tree before it is written, so no route can store one beyond the limits.
 */
export async function writeWithHistory(
  store: TenantStore,
  now: Clock,
  place: WritePlace,
  edit: (before: Overrides) => Overrides,
  bound: WriteBound,
): Promise<{ before: Overrides; after: Overrides; changes: OverridesChanges }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const record = await store.findOverrides(place.tenantId, place.namespace, place.language);
    const before = record ? (JSON.parse(record.overrides) as Overrides) : {};
    const after = edit(before);
    const json = JSON.stringify(after);
    await bound({ before, beforeJson: record?.overrides ?? "", after, json });
    const changes = changesBetween(before, after);
    const at = now();
    const written = await store.writeOverrides(
      {
        tenantId: place.tenantId,
        namespace: place.namespace,
        language: place.language,
        overrides: json,
        updatedAt: at,
        updatedBy: place.updatedBy,
      },
      record?.overrides,
      historyOf(place, after, changes, at),
    );
    if (written) return { before, after, changes };
  }
  throw new ApiError(
    "vocabulary_conflict",
    "The words of this namespace kept changing while this change was written; try again.",
  );
}

/** The tree with one dotted key set to a text, or removed (null); empty objects are pruned. */
export function withWord(tree: Overrides, key: string, text: string | null): Overrides {
  const [head = "", ...rest] = key.split(".");
  const out: Overrides = { ...tree };
  if (rest.length === 0) {
    if (text === null) delete out[head];
    else out[head] = text;
    return out;
  }
  const child = out[head];
  const next = withWord(typeof child === "object" ? child : {}, rest.join("."), text);
  if (Object.keys(next).length === 0) delete out[head];
  else out[head] = next;
  return out;
}
