import { createHash } from "node:crypto";
import type { Clock } from "../../lib/clock.js";
import { supportedLanguage } from "../../lib/languages.js";
import { ApiError } from "../../problems/api-error.js";
import type { Shares } from "../../security/shares.js";
import type {
  OverridesRecord,
  TenantStore,
  VocabularyChangeRecord,
} from "../../store/tenant-store.js";
import { AdminError } from "../tenants/admin.js";
import {
  keyCount,
  keyPathProblem,
  leavesOf,
  type Overrides,
  type OverridesChanges,
  overridesProblems,
} from "./overrides.js";
import { placeholderProblems } from "./placeholders.js";
import { type TreeWrite, type WriteBound, withWord, writeWithHistory } from "./word-history.js";

export const DEFAULT_NAMESPACE = "common";

/** A namespace name: the i18n engine's characters, bounded, and never an object's special key. */
export const NAMESPACE_PATTERN = "^(?!(__proto__|constructor|prototype)$)[A-Za-z0-9_-]{1,64}$";

/** The body of GET /v1/tenant/i18n-config, as the front end's `applyTenantConfig` takes it. */
interface TenantConfigBody {
  data: { namespace: string; language: string; overrides: Overrides };
}

interface Representation {
  /** The exact JSON sent, so the ETag is the hash of these bytes. */
  json: string;
  etag: string;
  language: string;
}

/** A strong validator: the same bytes always give the same tag, other bytes another. */
export const etagOf = (json: string): string =>
  `"${createHash("sha256").update(json, "utf8").digest("base64url").slice(0, 32)}"`;

/** RFC 9110 §13.1.2: If-None-Match compares weakly; `*` matches any current representation. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, "");
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === bare);
}

export function unsupportedLanguage(language: string, supported: readonly string[]): ApiError {
  return new ApiError(
    "language_unsupported",
    `'${language.slice(0, 64)}' is not a supported language; use one of: ${supported.join(", ")}.`,
    { supported_languages: supported },
  );
}

/** One key's word after a change, and the word before it (null: the standard text). */
export interface WordState {
  namespace: string;
  language: string;
  key: string;
  text: string | null;
  previous: string | null;
}

/** A history entry as the API answers it. */
interface WordChangeView {
  id: string;
  language: string;
  text: string | null;
  change: VocabularyChangeRecord["change"];
  changed_at: string;
  /** The user's email; null for the CLI (or a user since removed). */
  changed_by: string | null;
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const pointerOf = (key: string) => key.split(".").map(escapePointer).join("/");

/** A 400 listing every field error, the first in the detail. */
const invalidOverrides = (
  code: "overrides_invalid" | "placeholder_unknown",
  problems: readonly { pointer: string; message: string }[],
): ApiError => {
  const first = problems[0] as { pointer: string; message: string };
  return new ApiError(
    code,
    `${first.pointer} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}.`,
    { errors: problems.map((p) => ({ in: "body", ...p })) },
  );
};

/** A write of one namespace and language of a tenant's words, as event streams announce it. */
export interface VocabularyChanged {
  tenantId: string;
  namespace: string;
  language: string;
  /** When it was written (Unix ms). */
  at: number;
}

/**
 * A tenant's vocabulary: overrides per namespace and language, read by its users in their
 * language and replaced by its admins (or imported by the CLI) one language at a time.
 */
export class VocabularyService {
  constructor(
    private readonly store: TenantStore,
    private readonly languages: readonly string[],
    private readonly now: Clock,
    /** vocabulary_keys, vocabulary_bytes and vocabulary_namespaces bound what a tenant keeps. */
    private readonly shares: Shares,
  ) {}

  readonly #listeners = new Set<(change: VocabularyChanged) => void>();

  /**
   * Calls `listener` after each stored change of a tenant's words (API or CLI), so a tenant
   * event stream can tell every signed-in user to refetch (`vocabulary.changed`). Returns the
   * function that unsubscribes. A listener that throws does not undo or fail the change.
   */
  onChanged(listener: (change: VocabularyChanged) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(tenantId: string, namespace: string, language: string): void {
    for (const listener of this.#listeners) {
      try {
        listener({ tenantId, namespace, language, at: this.now() });
      } catch {
        // The words are stored; telling others is best effort.
      }
    }
  }

  /**
   * The profile language, unless the client explicitly asked for another (`?language=`).
   * Accept-Language is not consulted: every browser sends it, so it would override the language
   * the user chose in the application.
   */
  languageFor(profileLanguage: string, requested: string | undefined): string {
    if (requested === undefined) return profileLanguage;
    const tag = supportedLanguage(requested, this.languages);
    if (tag === undefined) throw unsupportedLanguage(requested, this.languages);
    return tag;
  }

  async read(tenantId: string, namespace: string, language: string): Promise<Representation> {
    const record = await this.store.findOverrides(tenantId, namespace, language);
    const body: TenantConfigBody = {
      data: {
        namespace,
        language,
        overrides: record ? (JSON.parse(record.overrides) as Overrides) : {},
      },
    };
    const json = JSON.stringify(body);
    return { json, etag: etagOf(json), language };
  }

  /** Checks the language and tree of each candidate without storing anything. */
  async check<
    T extends { language: string; namespace?: string; overrides: unknown; path?: string },
  >(candidates: T[]): Promise<T[]> {
    for (const candidate of candidates) {
      const where = candidate.path ? `${candidate.path}: ` : "";
      if (supportedLanguage(candidate.language, this.languages) === undefined) {
        throw new AdminError(
          `${where}'${candidate.language}' is not a supported language (${this.languages.join(", ")}).`,
        );
      }
      const problems = overridesProblems(candidate.overrides, "");
      if (problems.length === 0 && candidate.namespace !== undefined) {
        problems.push(
          ...placeholderProblems(
            candidate.namespace,
            candidate.overrides as Overrides,
            (key) => `/${key.split(".").join("/")}`,
          ),
        );
      }
      if (problems.length > 0) {
        throw new AdminError(
          `${where}${problems.map((p) => `${p.pointer || "/"} ${p.message}`).join("; ")}.`,
        );
      }
      try {
        const tree = candidate.overrides as Overrides;
        this.#assertSize(candidate.namespace ?? DEFAULT_NAMESPACE, candidate.language, {
          before: {},
          beforeJson: "",
          after: tree,
          json: JSON.stringify(tree),
        });
      } catch (error) {
        throw new AdminError(`${where}${(error as Error).message}`);
      }
    }
    return candidates;
  }

  /**
   * What every tree keeps before it is stored, whichever route writes it (a namespace's PUT, one
   * key's PUT, DELETE or revert, the CLI's import): the one place the vocabulary shares are
   * enforced. A write that starts a namespace counts the tenant's namespaces first.
   */
  #bound(tenantId: string, namespace: string, language: string): WriteBound {
    return async (write) => {
      this.#assertSize(namespace, language, write);
      if (Object.keys(write.before).length > 0 || Object.keys(write.after).length === 0) return;
      const namespaces = await this.store.listOverrideNamespaces(tenantId);
      if (namespaces.includes(namespace)) return;
      const bound = this.shares.bound("vocabulary_namespaces").tenant;
      this.shares.checkSize(
        "vocabulary_namespaces",
        namespaces.length + 1,
        `The tenant already has words in ${namespaces.length} namespaces, its share (at most ${bound}); '${namespace}' would be one more. Clear a namespace first.`,
      );
    };
  }

  /**
   * The namespace's keys and bytes in this language within their shares. A tree that grows
   * nothing passes even beyond them, so words kept before a bound was lowered can still be
   * removed one by one.
   */
  #assertSize(
    namespace: string,
    language: string,
    { before, beforeJson, after, json }: TreeWrite,
  ): void {
    const keys = keyCount(after);
    if (keys > keyCount(before)) {
      const bound = this.shares.bound("vocabulary_keys").item;
      this.shares.checkSize(
        "vocabulary_keys",
        keys,
        `The namespace '${namespace}' would have ${keys} keys in ${language}; at most ${bound} are allowed (objects count as keys). Remove words first.`,
      );
    }
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > Buffer.byteLength(beforeJson, "utf8")) {
      const bound = this.shares.bound("vocabulary_bytes").item;
      this.shares.checkSize(
        "vocabulary_bytes",
        bytes,
        `The namespace '${namespace}' would take ${bytes} bytes in ${language}; at most ${bound} are allowed. Shorten or remove words first.`,
      );
    }
  }

  /**
   * Replaces the overrides of one namespace and language (an empty object clears them) and says
   * what changed. Checks the language and the tree first: a refused request changes nothing.
   */
  async replace(
    tenantId: string,
    namespace: string,
    language: string,
    overrides: unknown,
    updatedBy: string | null,
  ): Promise<{ language: string; overrides: Overrides; changes: OverridesChanges }> {
    const tag = this.supported(language);
    const problems = overridesProblems(overrides);
    if (problems.length > 0) throw invalidOverrides("overrides_invalid", problems);
    const tree = overrides as Overrides;
    const unknown = placeholderProblems(namespace, tree, (key) => `/overrides/${pointerOf(key)}`);
    if (unknown.length > 0) throw invalidOverrides("placeholder_unknown", unknown);
    const { changes } = await writeWithHistory(
      this.store,
      this.now,
      { tenantId, namespace, language: tag, updatedBy, change: updatedBy ? "replace" : "import" },
      () => tree,
      this.#bound(tenantId, namespace, tag),
    );
    this.#changed(tenantId, namespace, tag);
    return { language: tag, overrides: tree, changes };
  }

  /**
   * Sets the tenant's word for one key in one language (null: back to the standard text),
   * leaving the namespace's other words as they are. A word using a placeholder the standard
   * text does not fill in is refused (400 placeholder_unknown) and changes nothing.
   */
  async setWord(
    place: { tenantId: string; namespace: string; language: string; key: string },
    text: string | null,
    updatedBy: string,
    change: "set" | "reset" | "revert" = text === null ? "reset" : "set",
  ): Promise<WordState> {
    const language = this.supported(place.language);
    // Checked before the key is used as a path into an object.
    const problem = keyPathProblem(place.key);
    if (problem) {
      throw new ApiError("overrides_invalid", `The key is not valid: ${problem}.`, {
        errors: [{ in: "params", pointer: "/key", message: problem }],
      });
    }
    if (text !== null) {
      const unknown = placeholderProblems(
        place.namespace,
        withWord({}, place.key, text),
        () => "/text",
      );
      if (unknown.length > 0) throw invalidOverrides("placeholder_unknown", unknown);
    }
    const { before } = await writeWithHistory(
      this.store,
      this.now,
      { tenantId: place.tenantId, namespace: place.namespace, language, updatedBy, change },
      (tree) => withWord(tree, place.key, text),
      this.#bound(place.tenantId, place.namespace, language),
    );
    this.#changed(place.tenantId, place.namespace, language);
    const previous = leavesOf(before).get(place.key) ?? null;
    return { namespace: place.namespace, language, key: place.key, text, previous };
  }

  /** A key's changes in every language, newest first (at most `limit`), with who made them. */
  async history(
    tenantId: string,
    namespace: string,
    key: string,
    limit = 100,
  ): Promise<WordChangeView[]> {
    const changes = await this.store.listVocabularyChanges(tenantId, namespace, key, limit);
    const ids = [...new Set(changes.flatMap((c) => (c.changedBy ? [c.changedBy] : [])))];
    const users = await Promise.all(ids.map((id) => this.store.findUser(id)));
    const email = new Map(
      users.flatMap((u) => (u && u.tenantId === tenantId ? [[u.id, u.email] as const] : [])),
    );
    return changes.map((c) => ({
      id: String(c.id),
      language: c.language,
      text: c.text,
      change: c.change,
      changed_at: new Date(c.changedAt).toISOString(),
      changed_by: c.changedBy === null ? null : (email.get(c.changedBy) ?? null),
    }));
  }

  /**
   * Puts back the word a history entry of this key recorded, in that entry's language; the
   * revert is itself a new entry. An entry of another key or tenant is 404, as a missing one.
   */
  async revert(
    place: { tenantId: string; namespace: string; key: string },
    historyId: number,
    updatedBy: string,
  ): Promise<WordState> {
    const entry = await this.store.findVocabularyChange(place.tenantId, historyId);
    if (!entry || entry.namespace !== place.namespace || entry.key !== place.key) {
      throw new ApiError(
        "vocabulary_change_not_found",
        `This key has no history entry ${historyId}.`,
      );
    }
    return this.setWord({ ...place, language: entry.language }, entry.text, updatedBy, "revert");
  }

  private supported(language: string): string {
    const tag = supportedLanguage(language, this.languages);
    if (tag === undefined) throw unsupportedLanguage(language, this.languages);
    return tag;
  }

  list(tenantId: string): Promise<OverridesRecord[]> {
    return this.store.listOverrides(tenantId);
  }
}
