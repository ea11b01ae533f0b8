import type { TwoFactorPolicy } from "./tenant-store.js";

/**
 * Tenant users' second factor (domain/users/two-factor.ts): the sealed TOTP secret, the
 * recovery codes' hashes, sign-in challenges and the tenant's policy. Times are Unix ms.
 */

export type { TwoFactorPolicy };

export interface TwoFactorRecord {
  userId: string;
  tenantId: string;
  /** seal()ed base32 secret. */
  secretSealed: string;
  createdAt: number;
  /** Null while the enrolment waits for its first code. */
  confirmedAt: number | null;
  lastStep: number;
}

export type ChallengePurpose = "session" | "token";

export interface ChallengeRecord {
  secretHash: string;
  userId: string;
  purpose: ChallengePurpose;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface TwoFactorStore {
  find(userId: string): Promise<TwoFactorRecord | undefined>;
  /** Starts (or restarts) a pending enrolment; false when the user's factor is confirmed. */
  startEnrolment(record: TwoFactorRecord): Promise<boolean>;
  /**
   * Confirms the pending enrolment at `step` and replaces the recovery codes, in one
   * transaction; false when nothing was pending.
   */
  confirm(
    userId: string,
    at: number,
    step: number,
    codeHashes: readonly string[],
  ): Promise<boolean>;
  /** Records a code of `step` used: false when that step (or a later one) was used already. */
  useStep(userId: string, step: number): Promise<boolean>;
  /** Removes the factor and the recovery codes; false when there was none. */
  remove(userId: string): Promise<boolean>;
  unusedRecoveryHashes(userId: string): Promise<string[]>;
  /** Spends one recovery code: false when it was spent already (by a racing request). */
  useRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean>;
  createChallenge(challenge: ChallengeRecord): Promise<void>;
  findChallenge(secretHash: string): Promise<ChallengeRecord | undefined>;
  /** Spends a challenge: false when it was spent already or has expired. */
  useChallenge(secretHash: string, at: number): Promise<boolean>;
  setPolicy(tenantId: string, policy: TwoFactorPolicy): Promise<void>;
}
