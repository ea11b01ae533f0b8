import { createHash } from "node:crypto";
import { ApiError } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { supportedLanguage } from "../../lib/languages.js";
import type { OverridesRecord, TenantStore } from "../../store/tenant-store.js";
import { AdminError } from "../tenants/admin.js";
import {
  changesBetween,
  type Overrides,
  type OverridesChanges,
  overridesProblems,
} from "./overrides.js";

export const DEFAULT_NAMESPACE = "common";

/** A namespace name: the i18n engine's characters, bounded, and never an object's special key. */
export const NAMESPACE_PATTERN = "^(?!(__proto__|constructor|prototype)$)[A-Za-z0-9_-]{1,64}$";

/** The body of GET /v1/tenant/i18n-config, as the front end's `applyTenantConfig` takes it. */
export interface TenantConfigBody {
  data: { namespace: string; language: string; overrides: Overrides };
}

export interface Representation {
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

/**
 * A tenant's vocabulary: overrides per namespace and language, read by its users in their
 * language and replaced by its admins (or imported by the CLI) one language at a time.
 */
/** A write of one namespace and language of a tenant's words, as event streams announce it. */
export interface VocabularyChanged {
  tenantId: string;
  namespace: string;
  language: string;
  /** When it was written (Unix ms). */
  at: number;
}

export class VocabularyService {
  readonly #listeners = new Set<(change: VocabularyChanged) => void>();

  constructor(
    private readonly store: TenantStore,
    private readonly languages: readonly string[],
    private readonly now: Clock,
  ) {}

  /**
   * The profile language, unless the client explicitly asked for another (`?language=`).
   * Accept-Language is not consulted: every browser sends it, so it would override the language
   * the user chose in the application.
   */
  /** Calls `listener` after each write of overrides (the tenant event stream's `vocabulary.changed`). */
  onChanged(listener: (change: VocabularyChanged) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

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

  /**
   * Replaces the overrides of one namespace and language (an empty object clears them) and says
   * what changed. Checks the language and the tree first: a refused request changes nothing.
   */
  /** Checks the language and tree of each candidate without storing anything. */
  async check<T extends { language: string; overrides: unknown; path?: string }>(
    candidates: T[],
  ): Promise<T[]> {
    for (const candidate of candidates) {
      const where = candidate.path ? `${candidate.path}: ` : "";
      if (supportedLanguage(candidate.language, this.languages) === undefined) {
        throw new AdminError(
          `${where}'${candidate.language}' is not a supported language (${this.languages.join(", ")}).`,
        );
      }
      const problems = overridesProblems(candidate.overrides, "");
      if (problems.length > 0) {
        throw new AdminError(
          `${where}${problems.map((p) => `${p.pointer || "/"} ${p.message}`).join("; ")}.`,
        );
      }
    }
    return candidates;
  }

  async replace(
    tenantId: string,
    namespace: string,
    language: string,
    overrides: unknown,
    updatedBy: string | null,
  ): Promise<{ language: string; overrides: Overrides; changes: OverridesChanges }> {
    const tag = supportedLanguage(language, this.languages);
    if (tag === undefined) throw unsupportedLanguage(language, this.languages);
    const problems = overridesProblems(overrides);
    if (problems.length > 0) {
      const first = problems[0] as { pointer: string; message: string };
      throw new ApiError(
        "overrides_invalid",
        `${first.pointer} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}.`,
        { errors: problems.map((p) => ({ in: "body", ...p })) },
      );
    }
    const tree = overrides as Overrides;
    const at = this.now();
    const previous = await this.store.replaceOverrides({
      tenantId,
      namespace,
      language: tag,
      overrides: JSON.stringify(tree),
      updatedAt: at,
      updatedBy,
    });
    for (const listener of this.#listeners) listener({ tenantId, namespace, language: tag, at });
    const before = previous === undefined ? {} : (JSON.parse(previous) as Overrides);
    return { language: tag, overrides: tree, changes: changesBetween(before, tree) };
  }

  list(tenantId: string): Promise<OverridesRecord[]> {
    return this.store.listOverrides(tenantId);
  }
}
