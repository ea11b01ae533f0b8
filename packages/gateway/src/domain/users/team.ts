import { createHash } from "node:crypto";
import type { TeamConfig } from "../../config/config.js";
import { ApiError } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { supportedLanguage } from "../../lib/languages.js";
import { newId, randomToken } from "../../lib/random.js";
import { hashPassword, passwordProblem } from "../../security/passwords.js";
import type { Store } from "../../store/store.js";
import type { PasswordLinkPurpose } from "../../store/team-store.js";
import type { TenantRecord, UserRecord, UserRole } from "../../store/tenant-store.js";
import { normaliseEmail } from "./accounts.js";
import { linkMessage, type Mailer } from "./mail.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A team member as the tenant's admins see them. */
export interface MemberView {
  id: string;
  email: string;
  role: UserRole;
  language: string;
  /** `invited` until a set-password link is used; `disabled` while an admin says so. */
  status: "invited" | "active" | "disabled";
  created_at: string;
  last_sign_in_at: string | null;
}

/** A one-time set-password link: the token is answered once and only its hash is kept. */
export interface IssuedLink {
  token: string;
  /** The console route that takes it, to append to the console's address. */
  path: string;
  expires_at: string;
  /** Whether it was also sent by mail (GATEWAY_SMTP_URL). */
  mailed: boolean;
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

export const memberView = (u: UserRecord): MemberView => ({
  id: u.id,
  email: u.email,
  role: u.role,
  language: u.language,
  status: u.disabledAt ? "disabled" : u.passwordHash === "" ? "invited" : "active",
  created_at: new Date(u.createdAt).toISOString(),
  last_sign_in_at: iso(u.lastSignInAt),
});

/** SHA-256 suffices: the token has 256 random bits, so there is nothing to brute-force. */
export const linkTokenHash = (token: string): string =>
  createHash("sha256").update(token).digest("hex");

const lastAdmin = (what: string) =>
  new ApiError(
    "last_admin",
    `${what} would leave the tenant without an active admin; make another member admin first.`,
  );
const userNotFound = (id: string) =>
  new ApiError("user_not_found", `No user '${id}' in your tenant.`);

/**
 * A tenant's team as its admins manage it: invites, roles, disabling, set-password links (and
 * mail, when configured). Disabling bumps the user's credential version, which every request
 * checks against the store (tenant-api/authenticate.ts), so the user's tokens stop on every
 * instance at once.
 */
export class TeamService {
  constructor(
    private readonly store: Store,
    private readonly config: TeamConfig,
    private readonly users: { languages: string[]; scryptCost: number },
    private readonly now: Clock,
    private readonly mailer: Mailer | undefined,
  ) {}

  get mailConfigured(): boolean {
    return this.mailer !== undefined;
  }

  async list(tenantId: string): Promise<MemberView[]> {
    return (await this.store.tenants.listUsers(tenantId)).map(memberView);
  }

  async member(tenantId: string, userId: string): Promise<UserRecord> {
    const user = await this.store.tenants.findUser(userId);
    if (!user || user.tenantId !== tenantId) throw userNotFound(userId);
    return user;
  }

  #link(userId: string, purpose: PasswordLinkPurpose) {
    const token = randomToken(32);
    const at = this.now();
    const record = {
      tokenHash: linkTokenHash(token),
      userId,
      purpose,
      createdAt: at,
      expiresAt: at + this.config.passwordLinkTtlSeconds * 1000,
      usedAt: null,
    };
    return { token, record };
  }

  /** Sends the link when mail is configured; a failure is reported, the link stays valid. */
  async #mail(
    user: UserRecord,
    tenant: TenantRecord,
    purpose: PasswordLinkPurpose,
    token: string,
    expiresAt: number,
  ): Promise<boolean> {
    if (!this.mailer || !this.config.publicUrl) return false;
    const message = linkMessage(purpose, user.language, {
      tenant: tenant.name,
      link: `${this.config.publicUrl}/${setPasswordPath(token)}`,
      expires: new Date(expiresAt).toUTCString(),
    });
    await this.mailer.send({ to: user.email, ...message });
    return true;
  }

  async #issued(
    user: UserRecord,
    tenant: TenantRecord,
    purpose: PasswordLinkPurpose,
    link: { token: string; record: { expiresAt: number } },
  ): Promise<IssuedLink> {
    const mailed = await this.#mail(user, tenant, purpose, link.token, link.record.expiresAt).catch(
      () => false,
    );
    return {
      token: link.token,
      path: setPasswordPath(link.token),
      expires_at: new Date(link.record.expiresAt).toISOString(),
      mailed,
    };
  }

  async invite(
    tenant: TenantRecord,
    input: { email: string; role: UserRole; language?: string },
  ): Promise<{ member: MemberView; link: IssuedLink }> {
    const email = normaliseEmail(input.email);
    if (email.length > 254 || !EMAIL.test(email))
      throw new ApiError("validation_failed", `'${input.email}' is not an email address.`, {
        errors: [{ pointer: "/email", message: "must be an email address" }],
      });
    const language =
      input.language === undefined
        ? (this.users.languages[0] ?? "en")
        : supportedLanguage(input.language, this.users.languages);
    if (language === undefined)
      throw new ApiError("language_unsupported", `'${input.language}' is not supported.`, {
        supported_languages: this.users.languages,
      });
    const at = this.now();
    const user: UserRecord = {
      id: `usr_${newId(at).replace(/-/g, "")}`,
      tenantId: tenant.id,
      email,
      passwordHash: "",
      credentialVersion: 1,
      role: input.role,
      language,
      createdAt: at,
      updatedAt: at,
      disabledAt: null,
      lastSignInAt: null,
    };
    const link = this.#link(user.id, "invite");
    if (!(await this.store.team.createInvitedUser(user, link.record)))
      throw new ApiError("user_exists", `A user with the email '${email}' already exists.`);
    return { member: memberView(user), link: await this.#issued(user, tenant, "invite", link) };
  }

  async changeRole(tenantId: string, userId: string, role: UserRole): Promise<MemberView> {
    const outcome = await this.store.team.setRole(tenantId, userId, role, this.now());
    if (outcome === "not_found") throw userNotFound(userId);
    if (outcome === "last_admin") throw lastAdmin("Making this admin a member");
    return memberView(await this.member(tenantId, userId));
  }

  async setDisabled(tenantId: string, userId: string, disabled: boolean): Promise<MemberView> {
    const outcome = await this.store.team.setDisabled(tenantId, userId, disabled, this.now());
    if (outcome === "not_found") throw userNotFound(userId);
    if (outcome === "last_admin") throw lastAdmin("Disabling this admin");
    return memberView(await this.member(tenantId, userId));
  }

  /** A new one-time link for a member (a forgotten password, or an invite sent again). */
  async resetLink(tenant: TenantRecord, userId: string): Promise<IssuedLink> {
    const user = await this.member(tenant.id, userId);
    const purpose = user.passwordHash === "" ? "invite" : "reset";
    const link = this.#link(user.id, purpose);
    await this.store.team.replacePasswordLink(link.record);
    return this.#issued(user, tenant, purpose, link);
  }

  /** What a link is for, without using it (the console's set-password page shows the email). */
  async inspectLink(token: string): Promise<{ email: string; purpose: PasswordLinkPurpose }> {
    const link = await this.store.team.findPasswordLink(linkTokenHash(token));
    const user = link && (await this.store.tenants.findUser(link.userId));
    if (!link || !user || link.usedAt !== null || link.expiresAt <= this.now() || user.disabledAt)
      throw linkInvalid();
    return { email: user.email, purpose: link.purpose };
  }

  /** Uses a link once: the password is set and every earlier token of the user stops. */
  async setPassword(token: string, password: string): Promise<UserRecord> {
    const problem = passwordProblem(password);
    if (problem)
      throw new ApiError("validation_failed", problem, {
        errors: [{ pointer: "/password", message: problem }],
      });
    await this.inspectLink(token);
    const hash = await hashPassword(password, this.users.scryptCost);
    const userId = await this.store.team.usePasswordLink(linkTokenHash(token), hash, this.now());
    const user = userId && (await this.store.tenants.findUser(userId));
    if (!user) throw linkInvalid();
    return user;
  }

  /**
   * "Forgot password": mails a reset link when mail is configured and the address is an enabled
   * user's. Says nothing either way: the caller answers alike whether or not the address exists.
   */
  async requestReset(email: string): Promise<UserRecord | undefined> {
    if (!this.mailer) return undefined;
    const user = await this.store.tenants.findUserByEmail(normaliseEmail(email));
    if (!user || user.disabledAt) return undefined;
    const tenant = await this.store.tenants.findTenant(user.tenantId);
    if (!tenant) return undefined;
    const link = this.#link(user.id, user.passwordHash === "" ? "invite" : "reset");
    await this.store.team.replacePasswordLink(link.record);
    await this.#mail(user, tenant, link.record.purpose, link.token, link.record.expiresAt);
    return user;
  }
}

export const setPasswordPath = (token: string): string =>
  `#/set-password?token=${encodeURIComponent(token)}`;

const linkInvalid = () =>
  new ApiError(
    "password_link_invalid",
    "This link is not valid: it was used already, has expired or was replaced by a newer one. Ask an admin for a new link.",
  );
