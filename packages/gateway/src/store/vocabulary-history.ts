import type { Statement } from "./order-moves.js";
import type { OverridesRecord, VocabularyChangeRecord } from "./tenant-store.js";

/**
 * Shared SQL of the vocabulary history (migration 014) for both stores: a compare-and-set write
 * of one language's overrides, and the history rows that go with it in the same transaction.
 */

const KEY = "tenant_id = ? AND namespace = ? AND language = ?";
const keyParams = (r: OverridesRecord) => [r.tenantId, r.namespace, r.language];

/**
 * Writes the overrides only if the row still holds `expected` (or, with undefined, does not
 * exist): the statement changes 0 rows when another write came first.
 */
export const compareAndSetOverrides = (
  record: OverridesRecord,
  expected: string | undefined,
): Statement =>
  expected === undefined
    ? {
        sql: "INSERT INTO tenant_overrides (tenant_id, namespace, language, overrides, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, namespace, language) DO NOTHING",
        params: [...keyParams(record), record.overrides, record.updatedAt, record.updatedBy],
      }
    : {
        sql: `UPDATE tenant_overrides SET overrides = ?, updated_at = ?, updated_by = ? WHERE ${KEY} AND overrides = ?`,
        params: [
          record.overrides,
          record.updatedAt,
          record.updatedBy,
          ...keyParams(record),
          expected,
        ],
      };

/**
 * One history row, inserted only when the row holds what this write wrote at this write's time:
 * when the compare-and-set before it changed nothing, neither does this. The casts give
 * PostgreSQL the parameters' types, which a SELECT list does not.
 */
export const historyInsert = (
  record: OverridesRecord,
  change: VocabularyChangeRecord,
): Statement => ({
  sql:
    "INSERT INTO vocabulary_history (tenant_id, namespace, language, key, text, change, changed_at, changed_by) " +
    "SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT) " +
    `WHERE EXISTS (SELECT 1 FROM tenant_overrides WHERE ${KEY} AND overrides = ? AND updated_at = ?)`,
  params: [
    change.tenantId,
    change.namespace,
    change.language,
    change.key,
    change.text,
    change.change,
    change.changedAt,
    change.changedBy,
    ...keyParams(record),
    record.overrides,
    record.updatedAt,
  ],
});

export interface VocabularyChangeRow {
  id: number;
  tenant_id: string;
  namespace: string;
  language: string;
  key: string;
  text: string | null;
  change: VocabularyChangeRecord["change"];
  changed_at: number;
  changed_by: string | null;
}

export const toVocabularyChange = (r: VocabularyChangeRow): VocabularyChangeRecord => ({
  id: Number(r.id),
  tenantId: r.tenant_id,
  namespace: r.namespace,
  language: r.language,
  key: r.key,
  text: r.text,
  change: r.change,
  changedAt: Number(r.changed_at),
  changedBy: r.changed_by,
});

export const LIST_KEY_CHANGES =
  "SELECT * FROM vocabulary_history WHERE tenant_id = ? AND namespace = ? AND key = ? ORDER BY id DESC LIMIT ?";

export const FIND_CHANGE = "SELECT * FROM vocabulary_history WHERE tenant_id = ? AND id = ?";
