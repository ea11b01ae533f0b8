import { createHash } from "node:crypto";
import type { Clock } from "../../lib/clock.js";
import { randomToken } from "../../lib/random.js";
import { ApiError } from "../../problems/api-error.js";
import type { LoginThrottle } from "../../security/login-throttle.js";
import { seal, unseal } from "../../security/seal.js";
import {
  matchingRecoveryHash,
  newRecoveryCode,
  newTotpSecret,
  RECOVERY_CODE_COUNT,
  recoveryCodeHash,
  totpCodeStep,
  totpUri,
} from "../../security/totp.js";
import type { TenantRecord, UserRecord } from "../../store/tenant-store.js";
import type {
  ChallengePurpose,
  TwoFactorPolicy,
  TwoFactorStore,
} from "../../store/two-factor-store.js";

/** A sign-in's challenge lasts this long: time to open the authenticator app and type. */
export const CHALLENGE_MS = 5 * 60 * 1000;

/** What proves the second factor: a current code, or one of the recovery codes. */
export type SecondFactorProof = { code: string } | { recoveryCode: string };

export interface ProofOutcome {
  /** A recovery code was spent (audited as such). */
  recoveryCodeUsed: boolean;
  recoveryCodesLeft: number;
}

const sealedFor = (userId: string) => `user-totp:${userId}`;
const challengeHash = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** A wrong code at sign-in is a 401; a signed-in user's (set-up, turning off) a 422. */
type WrongCode = "second_factor_invalid" | "two_factor_code_invalid";

const codeInvalid = (code: WrongCode = "second_factor_invalid") =>
  new ApiError(
    code,
    "The code is not the current code of the authenticator app, nor an unused recovery code.",
  );

/** Whether the tenant's policy asks `user` for a second factor. */
export const requiredFor = (user: UserRecord, tenant: TenantRecord): boolean => {
  const policy: TwoFactorPolicy = tenant.twoFactorRequired ?? "nobody";
  return policy === "everyone" || (policy === "admins" && user.role === "admin");
};

/**
 * Tenant users' second factor: TOTP enrolment (a sealed secret, confirmed by a first code, then
 * ten single-use recovery codes), the challenge a password sign-in answers with when a factor is
 * set, and proving it. Every code check is throttled like a password (LoginThrottle, its own
 * "second_factor" counts per user and per address); a code's time step is used once.
 */
export class TwoFactorService {
  constructor(
    private readonly store: TwoFactorStore,
    /** Seals the TOTP secrets (derived from the master key). */
    private readonly sealKey: Buffer,
    /** Keys the recovery codes' hashes. */
    private readonly pepper: Buffer,
    private readonly throttle: LoginThrottle,
    private readonly now: Clock,
  ) {}

  /** True when the user has a confirmed factor. */
  async enabled(userId: string): Promise<boolean> {
    return Boolean((await this.store.find(userId))?.confirmedAt);
  }

  /**
   * The user must enrol before doing anything else: their tenant requires a factor of them and
   * they have none. Costs no store read unless the policy applies.
   */
  async mustEnrol(user: UserRecord, tenant: TenantRecord): Promise<boolean> {
    return requiredFor(user, tenant) && !(await this.enabled(user.id));
  }

  async status(user: UserRecord, tenant: TenantRecord) {
    const factor = await this.store.find(user.id);
    const enabled = Boolean(factor?.confirmedAt);
    return {
      enabled,
      required: requiredFor(user, tenant),
      recoveryCodesLeft: enabled ? (await this.store.unusedRecoveryHashes(user.id)).length : 0,
    };
  }

  /** A new secret, pending until confirmed; shown once (the store keeps it sealed). */
  async startEnrolment(user: UserRecord): Promise<{ secret: string; uri: string }> {
    const secret = newTotpSecret();
    const started = await this.store.startEnrolment({
      userId: user.id,
      tenantId: user.tenantId,
      secretSealed: seal(this.sealKey, secret, sealedFor(user.id)),
      createdAt: this.now(),
      confirmedAt: null,
      lastStep: 0,
    });
    if (!started)
      throw new ApiError(
        "two_factor_already_enabled",
        "Two-step sign-in is on already; turn it off first to set up another authenticator.",
      );
    return { secret, uri: totpUri(secret, user.email) };
  }

  /** The first code makes the factor active; answers the recovery codes (shown once). */
  async confirmEnrolment(user: UserRecord, code: string, source: string): Promise<string[]> {
    const factor = await this.store.find(user.id);
    if (!factor || factor.confirmedAt !== null)
      throw new ApiError(
        "two_factor_not_pending",
        factor
          ? "Two-step sign-in is on already."
          : "No set-up is pending; start one with POST /v1/user/two-factor/enrolment.",
      );
    const keys = this.throttle.keysOf("second_factor", user.id, source);
    await this.throttle.assertOpen(keys);
    const at = this.now();
    const step = totpCodeStep(this.#secretOf(user.id, factor.secretSealed), code, at);
    if (step === undefined) {
      await this.throttle.failed(keys);
      throw codeInvalid("two_factor_code_invalid");
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = codes.map((c) => recoveryCodeHash(this.pepper, c));
    if (!(await this.store.confirm(user.id, at, step, hashes)))
      throw new ApiError("two_factor_not_pending", "Two-step sign-in is on already.");
    await this.throttle.succeeded(keys);
    return codes;
  }

  /** Turns the factor off, after proving it (a current code or a recovery code). */
  async disable(user: UserRecord, proof: SecondFactorProof, source: string): Promise<void> {
    await this.prove(user, proof, source, "two_factor_code_invalid");
    await this.store.remove(user.id);
  }

  /** A challenge for a user whose password matched and who has a factor: redeemed by prove(). */
  async challenge(
    user: UserRecord,
    purpose: ChallengePurpose,
  ): Promise<{ challenge: string; expiresAt: number }> {
    const challenge = randomToken(32);
    const at = this.now();
    const expiresAt = at + CHALLENGE_MS;
    await this.store.createChallenge({
      secretHash: challengeHash(challenge),
      userId: user.id,
      purpose,
      createdAt: at,
      expiresAt,
      usedAt: null,
    });
    return { challenge, expiresAt };
  }

  /**
   * The user a live challenge of `purpose` names; spent only by redeem() after the proof, so a
   * mistyped code can be typed again (the throttle counts each).
   */
  async challenged(challenge: string, purpose: ChallengePurpose): Promise<string> {
    const found = await this.store.findChallenge(challengeHash(challenge));
    if (
      !found ||
      found.purpose !== purpose ||
      found.usedAt !== null ||
      found.expiresAt <= this.now()
    )
      throw new ApiError(
        "second_factor_challenge_invalid",
        "The sign-in's challenge is unknown, used or more than 5 minutes old; sign in with the password again.",
      );
    return found.userId;
  }

  /** Spends the challenge once the proof passed; a racing second use is refused. */
  async redeem(challenge: string): Promise<void> {
    if (!(await this.store.useChallenge(challengeHash(challenge), this.now())))
      throw new ApiError(
        "second_factor_challenge_invalid",
        "The sign-in's challenge was used already; sign in with the password again.",
      );
  }

  /**
   * Checks a current code (its step not used before) or an unused recovery code (spent), under
   * the throttle: 429 login_throttled while locked, 401 second_factor_invalid when wrong.
   */
  async prove(
    user: UserRecord,
    proof: SecondFactorProof,
    source: string,
    wrong: WrongCode = "second_factor_invalid",
  ): Promise<ProofOutcome> {
    const factor = await this.store.find(user.id);
    if (!factor?.confirmedAt)
      throw new ApiError("two_factor_not_enabled", "Two-step sign-in is not on for this account.");
    const keys = this.throttle.keysOf("second_factor", user.id, source);
    await this.throttle.assertOpen(keys);
    const accepted =
      "code" in proof
        ? await this.#codeAccepted(user.id, factor.secretSealed, proof.code)
        : await this.#recoveryAccepted(user.id, proof.recoveryCode);
    if (!accepted) {
      await this.throttle.failed(keys);
      throw codeInvalid(wrong);
    }
    await this.throttle.succeeded(keys);
    return {
      recoveryCodeUsed: "recoveryCode" in proof,
      recoveryCodesLeft: (await this.store.unusedRecoveryHashes(user.id)).length,
    };
  }

  async #codeAccepted(userId: string, sealed: string, code: string): Promise<boolean> {
    const step = totpCodeStep(this.#secretOf(userId, sealed), code, this.now());
    // A step used before (the same code again, or an older one) is refused like a wrong code.
    return step !== undefined && (await this.store.useStep(userId, step));
  }

  async #recoveryAccepted(userId: string, code: string): Promise<boolean> {
    const stored = await this.store.unusedRecoveryHashes(userId);
    const hash = matchingRecoveryHash(this.pepper, code, stored);
    return hash !== undefined && (await this.store.useRecoveryCode(userId, hash, this.now()));
  }

  #secretOf(userId: string, sealed: string): string {
    return unseal(this.sealKey, sealed, sealedFor(userId));
  }

  /** An admin removes a user's factor (lost phone and codes): false when there was none. */
  reset(userId: string): Promise<boolean> {
    return this.store.remove(userId);
  }

  setPolicy(tenantId: string, policy: TwoFactorPolicy): Promise<void> {
    return this.store.setPolicy(tenantId, policy);
  }
}
