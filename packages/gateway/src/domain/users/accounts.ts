import type { UsersConfig } from "../../config/config.js";
import type { Clock } from "../../lib/clock.js";
import { supportedLanguage } from "../../lib/languages.js";
import { newId } from "../../lib/random.js";
import { hashPassword, passwordProblem } from "../../security/passwords.js";
import type { TenantStore, UserRole } from "../../store/tenant-store.js";
import { AdminError } from "../tenants/admin.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Emails are compared case-insensitively and without surrounding spaces. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

interface UserSummary {
  user_id: string;
  tenant_id: string;
  email: string;
  role: UserRole;
  language: string;
  created_at: string;
}

/** The operators' operations on tenant users (the CLI and the demo set-up). */
export class UserAdmin {
  constructor(
    private readonly store: TenantStore,
    private readonly config: UsersConfig,
    private readonly now: Clock,
  ) {}

  async create(input: {
    tenantId: string;
    email: string;
    role: string;
    password: string;
    language?: string;
  }): Promise<UserSummary> {
    const email = normaliseEmail(input.email);
    if (email.length > 254 || !EMAIL.test(email))
      throw new AdminError(`'${input.email}' is not an email address.`);
    if (input.role !== "admin" && input.role !== "member")
      throw new AdminError("The role must be 'admin' or 'member'.");
    const language =
      input.language === undefined
        ? (this.config.languages[0] ?? "en")
        : supportedLanguage(input.language, this.config.languages);
    if (language === undefined) {
      throw new AdminError(
        `'${input.language}' is not a supported language (${this.config.languages.join(", ")}).`,
      );
    }
    const problem = passwordProblem(input.password);
    if (problem) throw new AdminError(problem);
    if (!(await this.store.findTenant(input.tenantId)))
      throw new AdminError(`No tenant with id '${input.tenantId}' (see: tenants list).`);
    const at = this.now();
    const user = {
      id: `usr_${newId(at).replace(/-/g, "")}`,
      tenantId: input.tenantId,
      email,
      passwordHash: await hashPassword(input.password, this.config.scryptCost),
      credentialVersion: 1,
      role: input.role as UserRole,
      language,
      createdAt: at,
      updatedAt: at,
    };
    if (!(await this.store.createUser(user)))
      throw new AdminError(`A user with the email '${email}' already exists.`);
    return {
      user_id: user.id,
      tenant_id: user.tenantId,
      email,
      role: user.role,
      language,
      created_at: new Date(at).toISOString(),
    };
  }

  /** A new password (e.g. a forgotten one); every token of the user stops working. */
  async setPassword(email: string, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw new AdminError(problem);
    const user = await this.store.findUserByEmail(normaliseEmail(email));
    if (!user) throw new AdminError(`No user with the email '${email}'.`);
    await this.store.setUserPassword(
      user.id,
      await hashPassword(password, this.config.scryptCost),
      this.now(),
    );
  }

  async list(tenantId: string): Promise<UserSummary[]> {
    return (await this.store.listUsers(tenantId)).map((u) => ({
      user_id: u.id,
      tenant_id: u.tenantId,
      email: u.email,
      role: u.role,
      language: u.language,
      created_at: new Date(u.createdAt).toISOString(),
    }));
  }
}
