import type { FastifyRequest } from "fastify";
import type { SecondFactorProof, TwoFactorService } from "../domain/users/two-factor.js";
import { addressBucket } from "../lib/address-bucket.js";
import { ApiError } from "../problems/api-error.js";
import type { TenantStore, UserRecord } from "../store/tenant-store.js";
import type { ChallengePurpose } from "../store/two-factor-store.js";

/** The second step's body: the challenge and one proof. */
export interface SecondFactorBody {
  challenge: string;
  code?: string;
  recovery_code?: string;
}

/**
 * After the password matched: a user with a second factor gets no session nor token yet but 401
 * second_factor_required carrying a challenge (5 minutes, single use) for the second step.
 */
export async function assertNoSecondFactorDue(
  twoFactor: TwoFactorService,
  user: UserRecord,
  purpose: ChallengePurpose,
  secondStep: string,
): Promise<void> {
  if (!(await twoFactor.enabled(user.id))) return;
  const { challenge, expiresAt } = await twoFactor.challenge(user, purpose);
  throw new ApiError(
    "second_factor_required",
    `The password matched; send the authenticator app's code (or a recovery code) with this challenge to ${secondStep}.`,
    { challenge, expires_at: new Date(expiresAt).toISOString() },
  );
}

const actorOf = (user: UserRecord) => ({ kind: "user" as const, id: user.id, label: user.email });

/**
 * The second step of a sign-in: the challenge's user, once the code or recovery code proves the
 * factor (throttled per user and address; a failure and a spent recovery code are audited). The
 * challenge is spent only then, so a mistyped code can be typed again.
 */
export async function passSecondFactor(
  request: FastifyRequest<{ Body: SecondFactorBody }>,
  twoFactor: TwoFactorService,
  users: TenantStore,
  purpose: ChallengePurpose,
  proof: SecondFactorProof,
): Promise<UserRecord> {
  const { challenge } = request.body;
  const user = await users.findUser(await twoFactor.challenged(challenge, purpose));
  if (!user) throw new ApiError("token_invalid", "The challenge's user no longer exists.");
  if (user.disabledAt)
    throw new ApiError(
      "user_disabled",
      "This account was disabled by a tenant admin; ask them to enable it.",
    );
  const record = (action: string, details: Record<string, unknown>, message: string) =>
    request.server.auditTrail.record(
      {
        tenantId: user.tenantId,
        actor: actorOf(user),
        action,
        details: { subject_user_id: user.id, email: user.email, ...details },
        sourceAddress: request.ip,
        message,
      },
      request.log,
    );
  let outcome: Awaited<ReturnType<TwoFactorService["prove"]>>;
  try {
    outcome = await twoFactor.prove(user, proof, addressBucket(request.ip));
  } catch (error) {
    if (error instanceof ApiError && error.code === "second_factor_invalid")
      await record(
        "user_second_factor_failed",
        { kind: "code" in proof ? "code" : "recovery_code" },
        "second factor refused at sign-in",
      );
    throw error;
  }
  await twoFactor.redeem(challenge);
  if (outcome.recoveryCodeUsed)
    await record(
      "user_recovery_code_used",
      { recovery_codes_left: outcome.recoveryCodesLeft },
      "recovery code used to sign in",
    );
  return user;
}
