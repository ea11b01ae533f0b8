import { createHash } from "node:crypto";
import type { TeamConfig } from "../../config/config.js";
import type { Clock } from "../../lib/clock.js";
import { supportedLanguage } from "../../lib/languages.js";
import { newId, randomToken } from "../../lib/random.js";
import { ApiError } from "../../problems/api-error.js";
import { hashPassword, passwordProblem } from "../../security/passwords.js";
import type { Shares } from "../../security/shares.js";
import type { Store } from "../../store/store.js";
import type { PasswordLinkPurpose } from "../../store/team-store.js";
import type { TenantRecord, UserRecord, UserRole } from "../../store/tenant-store.js";
import { announceAccessChange } from "../events/access.js";
import { normaliseEmail } from "./accounts.js";
import { displayName } from "./display-name.js";
import { linkMessage, type Mailer } from "./mail.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A team member as the tenant's admins see them. */
export interface MemberView {
  id: string;
  /** Their display name; null when they have none (show the email). */
  name: string | null;
  email: string;
  role: UserRole;
  language: string;
  /** `invited` until a set-password link is used; `disabled` while an admin says so. */
  status: "invited" | "active" | "disabled";
  created_at: string;
  last_sign_in_at: string | null;
}

/**
 * A one-time set-password link as its issuer sees it. Without mail the token is answered once
 * (only its hash is kept) for the admin to hand over; with mail configured it goes to the
 * user's mailbox only, so no admin can use a colleague's link to take their account over.
 */
export interface IssuedLink {
  /** Absent when mail is configured. */
  token?: string;
  /** The console route that takes it, to append to the console's address; absent with mail. */
  path?: string;
  expires_at: string;
  /** Whether it was sent by mail; false with mail configured means sending failed (ask again). */
  mailed: boolean;
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

export const memberView = (u: UserRecord): MemberView => ({
  id: u.id,
  name: u.displayName ?? null,
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
    private readonly shares: Shares,
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

  /** A member by email within one tenant (the operators' CLI names users so). */
  async memberByEmail(tenantId: string, email: string): Promise<UserRecord> {
    const address = normaliseEmail(email);
    const user = (await this.store.tenants.listUsers(tenantId)).find((u) => u.email === address);
    if (!user) throw new ApiError("user_not_found", `No user '${address}' in this tenant.`);
    return user;
  }

  /**
   * Counts one mail to `email` against the tenant's and the recipient's `mails` share (429 when
   * spent), before anything is written, so a refused invite leaves no user behind.
   */
  async #mailBudget(tenantId: string, email: string): Promise<void> {
    if (!this.mailer) return;
    const recipient = createHash("sha256").update(email).digest("hex").slice(0, 32);
    const who = { tenant: tenantId, party: `recipient:${recipient}` };
    // A recipient already refused is turned away uncounted: one address flooded with
    // "forgot password" must not also spend its whole tenant's mail.
    const refused = this.shares.refusedError("mails", who);
    if (refused) throw refused;
    await this.shares.take("mails", who);
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
    const expires_at = new Date(link.record.expiresAt).toISOString();
    if (!this.mailer)
      return { token: link.token, path: setPasswordPath(link.token), expires_at, mailed: false };
    const mailed = await this.#mail(user, tenant, purpose, link.token, link.record.expiresAt).catch(
      () => false,
    );
    return { expires_at, mailed };
  }

  async invite(
    tenant: TenantRecord,
    input: { email: string; role: UserRole; language?: string; name?: string | null },
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
    const name = displayName(input.name ?? null);
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
      displayName: name,
    };
    await this.#mailBudget(tenant.id, email);
    const link = this.#link(user.id, "invite");
    if (!(await this.store.team.createInvitedUser(user, link.record)))
      throw new ApiError("user_exists", `Your team has a user with the email '${email}'.`);
    return { member: memberView(user), link: await this.#issued(user, tenant, "invite", link) };
  }

  async changeRole(tenantId: string, userId: string, role: UserRole): Promise<MemberView> {
    const outcome = await this.store.team.setRole(tenantId, userId, role, this.now());
    if (outcome === "not_found") throw userNotFound(userId);
    if (outcome === "last_admin") throw lastAdmin("Making this admin a member");
    return memberView(await this.member(tenantId, userId));
  }

  /**
   * Names a member of the tenant (an admin naming a colleague, or a user themself): the name is
   * checked and trimmed here (displayName), null or blank removes it. Answers the member before
   * and after, for the audit's from and to.
   */
  async rename(
    tenantId: string,
    userId: string,
    input: string | null,
  ): Promise<{ before: UserRecord; member: MemberView }> {
    const name = displayName(input);
    const before = await this.member(tenantId, userId);
    if (!(await this.store.team.setDisplayName(tenantId, userId, name, this.now())))
      throw userNotFound(userId);
    return { before, member: memberView({ ...before, displayName: name }) };
  }

  async setDisabled(tenantId: string, userId: string, disabled: boolean): Promise<MemberView> {
    const outcome = await this.store.team.setDisabled(tenantId, userId, disabled, this.now());
    if (outcome === "not_found") throw userNotFound(userId);
    if (outcome === "last_admin") throw lastAdmin("Disabling this admin");
    // Their open streams, on every instance, end now rather than at their next re-check.
    if (disabled) await announceAccessChange(this.store.events, `user:${userId}`, this.now());
    return memberView(await this.member(tenantId, userId));
  }

  /** A new one-time link for a member (a forgotten password, or an invite sent again). */
  async resetLink(tenant: TenantRecord, userId: string): Promise<IssuedLink> {
    const user = await this.member(tenant.id, userId);
    const purpose = user.passwordHash === "" ? "invite" : "reset";
    await this.#mailBudget(tenant.id, user.email);
    const link = this.#link(user.id, purpose);
    await this.store.team.replacePasswordLink(link.record);
    return this.#issued(user, tenant, purpose, link);
  }

  /** What a link is for, without using it (the console's set-password page shows the email). */
  async inspectLink(
    token: string,
  ): Promise<{ email: string; purpose: PasswordLinkPurpose; language: string }> {
    const link = await this.store.team.findPasswordLink(linkTokenHash(token));
    const user = link && (await this.store.tenants.findUser(link.userId));
    if (!link || !user || link.usedAt !== null || link.expiresAt <= this.now() || user.disabledAt)
      throw linkInvalid();
    return { email: user.email, purpose: link.purpose, language: user.language };
  }

  /** Whether an account has signed up with the address (it is then that account's). */
  async #signedUp(email: string): Promise<boolean> {
    const user = await this.store.tenants.findUserByEmail(email);
    return user !== undefined && user.passwordHash !== "";
  }

  /** Uses a link once: the password is set and every earlier token of the user stops. */
  async setPassword(token: string, password: string): Promise<UserRecord> {
    const problem = passwordProblem(password);
    if (problem)
      throw new ApiError("validation_failed", problem, {
        errors: [{ pointer: "/password", message: problem }],
      });
    const { email } = await this.inspectLink(token);
    const hash = await hashPassword(password, this.users.scryptCost);
    const userId = await this.store.team
      .usePasswordLink(linkTokenHash(token), hash, this.now())
      // Two invites of one address accepted at the same moment: the unique index decides.
      .catch(async (error: unknown) => {
        if (await this.#signedUp(email)) return undefined;
        throw error;
      });
    const user = userId && (await this.store.tenants.findUser(userId));
    if (!user) {
      if (await this.#signedUp(email)) throw emailInUse();
      throw linkInvalid();
    }
    // Every earlier token stopped: so do the streams opened with them.
    await announceAccessChange(this.store.events, `user:${user.id}`, this.now());
    return user;
  }

  /**
   * "Forgot password": the enabled user with that address, or undefined; the caller decides
   * whether a mail may go (the mails share) and answers alike either way.
   */
  async resetCandidate(email: string): Promise<UserRecord | undefined> {
    if (!this.mailer) return undefined;
    const user = await this.store.tenants.findUserByEmail(normaliseEmail(email));
    // An invitee holds a mailed invite already (an admin can send it again); several tenants'
    // invites of one address would leave no single one to pick.
    return user && !user.disabledAt && user.passwordHash !== "" ? user : undefined;
  }

  /**
   * Mails a self-service link to `user`, unless the tenant's or the recipient's `mails` share is
   * spent (then false, and nothing is sent or stored). The link is added beside the user's
   * other links: an anonymous request must not void the link an admin just handed out.
   */
  async mailReset(user: UserRecord): Promise<boolean> {
    const tenant = await this.store.tenants.findTenant(user.tenantId);
    if (!tenant) return false;
    try {
      await this.#mailBudget(tenant.id, user.email);
    } catch (error) {
      if (error instanceof ApiError) return false;
      throw error;
    }
    const link = this.#link(user.id, "reset");
    await this.store.team.addPasswordLink(link.record);
    return this.#mail(user, tenant, link.record.purpose, link.token, link.record.expiresAt);
  }
}

const setPasswordPath = (token: string): string =>
  `#/set-password?token=${encodeURIComponent(token)}`;

const emailInUse = () =>
  new ApiError(
    "email_in_use",
    "This address already has an Orderline account: sign in with it (or reset its password). One address is one account.",
  );

const linkInvalid = () =>
  new ApiError(
    "password_link_invalid",
    "This link is not valid: it was used already, has expired or was replaced by a newer one. Ask an admin for a new link.",
  );
