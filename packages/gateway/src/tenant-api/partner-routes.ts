import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type PartnerAdmin,
  PartnerAdminError,
  type PartnerSummary,
} from "../domain/partners/admin.js";
import { enveloped, problemResponses } from "../http/schemas.js";
import { INPUT_LIMITS } from "../lib/input-limits.js";
import { ApiError } from "../problems/api-error.js";
import { PublicKeyError } from "../security/public-key.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";
import {
  auditTenantChange,
  NO_QUERY,
  refusedAs,
  requireAdmin,
  requireUser,
  USER_SECURITY,
} from "./guard.js";

const TAGS = ["Tenant partners"];
const PEM = {
  type: "string",
  minLength: 1,
  maxLength: INPUT_LIMITS.publicKeyPem,
  description: "The partner's RSA public key (≥ 2048 bits), PEM: SPKI or PKCS#1",
} as const;
/** A PEM is lines of base64: the one body field here where the text rule allows line breaks. */
const PEM_FIELD = (path: readonly string[]) => path.length === 1 && path[0] === "public_key";
const CLIENT_PARAMS = {
  type: "object",
  required: ["client_id"],
  additionalProperties: false,
  properties: { client_id: { type: "string", minLength: 1, maxLength: 64 } },
} as const;
const KEY = {
  type: "object",
  required: ["key_id", "fingerprint", "bits", "created_at", "revoked_at"],
  properties: {
    key_id: { type: "string" },
    fingerprint: { type: "string", description: "SHA-256 of the SubjectPublicKeyInfo, hex" },
    bits: { type: "integer" },
    created_at: { type: "string", format: "date-time" },
    revoked_at: { type: ["string", "null"], format: "date-time" },
  },
} as const;
const PARTNER = {
  type: "object",
  required: ["client_id", "name", "status", "secret_version", "created_at", "keys"],
  properties: {
    client_id: { type: "string" },
    name: { type: "string" },
    status: { type: "string", enum: ["active", "disabled"] },
    secret_version: { type: "integer" },
    created_at: { type: "string", format: "date-time" },
    keys: { type: "array", items: KEY },
  },
} as const;
const SECRET = {
  type: "object",
  required: ["client_id", "client_secret"],
  properties: {
    client_id: { type: "string" },
    client_secret: { type: "string", description: "Shown once: only its hash is stored" },
    key_id: { type: "string" },
  },
} as const;

interface TenantPartnerRoutesOptions {
  partners: PartnerAdmin;
  authenticator: UserAuthenticator;
}

/** What the tenant's admins see of a partner: no tenant id (it is theirs), keys without PEM. */
const view = ({ tenant_id: _tenant, ...partner }: PartnerSummary) => partner;

/** What every partner route shares: the admin check, the tenant's own partner, refusals. */
interface PartnerRouteKit {
  partners: PartnerAdmin;
  admin: (request: FastifyRequest, action: string) => UserContext;
  ownPartner: (context: UserContext, clientId: string) => Promise<PartnerSummary>;
  refused: (error: unknown) => never;
}

/**
 * /v1/tenant/partners: a tenant's admins manage the partners whose orders come to the tenant,
 * with the admin CLI's operations and messages (PartnerAdmin). Another tenant's partner answers
 * 404 like a missing one. Every change is logged as an audit event with the user and tenant;
 * secrets are answered once with `Cache-Control: no-store` and never logged.
 */
export async function tenantPartnerRoutes(
  app: FastifyInstance,
  { partners, authenticator }: TenantPartnerRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  const ownPartner = async (context: UserContext, clientId: string) => {
    const found = (await partners.list()).find(
      (p) => p.client_id === clientId && p.tenant_id === context.tenant.id,
    );
    if (!found) throw new ApiError("partner_not_found", `No partner '${clientId}' in your tenant.`);
    return found;
  };
  const refused = refusedAs(
    [PublicKeyError, "partner_key_invalid"],
    [PartnerAdminError, "partner_change_refused"],
  );
  const kit: PartnerRouteKit = { partners, admin: requireAdmin, ownPartner, refused };
  for (const route of [
    listPartners,
    createPartner,
    addPartnerKey,
    revokePartnerKey,
    rotatePartnerSecret,
    setPartnerStatus,
  ])
    route(app, kit);
}

function listPartners(app: FastifyInstance, { partners, admin }: PartnerRouteKit): void {
  app.get(
    "/v1/tenant/partners",
    {
      schema: {
        tags: TAGS,
        summary: "The partners whose orders come to the tenant (tenant admins)",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        response: {
          200: {
            type: "object",
            required: ["data"],
            properties: { data: { type: "array", items: PARTNER } },
          },
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const context = admin(request, "manage partners");
      const all = await partners.list();
      return { data: all.filter((p) => p.tenant_id === context.tenant.id).map(view) };
    },
  );
}

function createPartner(app: FastifyInstance, { partners, admin, refused }: PartnerRouteKit): void {
  app.post<{ Body: { name: string; public_key?: string } }>(
    "/v1/tenant/partners",
    {
      config: { multilineText: PEM_FIELD },
      schema: {
        tags: TAGS,
        summary: "Create a partner of the tenant; its secret is answered once",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: {
          type: "object",
          required: ["name"],
          additionalProperties: false,
          properties: {
            name: { type: "string", minLength: 1, maxLength: INPUT_LIMITS.partnerName },
            public_key: PEM,
          },
        },
        response: { 201: enveloped(SECRET), ...problemResponses(400, 401, 403, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const context = admin(request, "manage partners");
      const created = await partners
        .create(request.body.name, request.body.public_key, { tenantId: context.tenant.id })
        .catch(refused);
      await auditTenantChange(request, context, "tenant_partner_created", {
        client_id: created.clientId,
        key_id: created.keyId,
      });
      reply.code(201).header("cache-control", "no-store");
      return {
        data: {
          client_id: created.clientId,
          client_secret: created.clientSecret,
          ...(created.keyId ? { key_id: created.keyId } : {}),
        },
      };
    },
  );
}

function addPartnerKey(
  app: FastifyInstance,
  { partners, admin, ownPartner, refused }: PartnerRouteKit,
): void {
  app.post<{ Params: { client_id: string }; Body: { public_key: string } }>(
    "/v1/tenant/partners/:client_id/keys",
    {
      config: { multilineText: PEM_FIELD },
      schema: {
        tags: TAGS,
        summary: "Register a public key of the partner (at most 2 active)",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        params: CLIENT_PARAMS,
        body: {
          type: "object",
          required: ["public_key"],
          additionalProperties: false,
          properties: { public_key: PEM },
        },
        response: {
          201: enveloped({
            type: "object",
            required: ["key_id"],
            properties: { key_id: { type: "string" } },
          }),
          ...problemResponses(400, 401, 403, 404, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const context = admin(request, "manage partners");
      const { client_id } = await ownPartner(context, request.params.client_id);
      const keyId = await partners.addKey(client_id, request.body.public_key).catch(refused);
      await auditTenantChange(request, context, "tenant_partner_key_added", {
        client_id,
        key_id: keyId,
      });
      reply.code(201);
      return { data: { key_id: keyId } };
    },
  );
}

function revokePartnerKey(
  app: FastifyInstance,
  { partners, admin, ownPartner, refused }: PartnerRouteKit,
): void {
  app.delete<{ Params: { client_id: string; key_id: string } }>(
    "/v1/tenant/partners/:client_id/keys/:key_id",
    {
      schema: {
        tags: TAGS,
        summary: "Revoke a key: requests signed with it are refused at once",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        params: {
          type: "object",
          required: ["client_id", "key_id"],
          additionalProperties: false,
          properties: {
            client_id: { type: "string", minLength: 1, maxLength: 64 },
            key_id: { type: "string", minLength: 1, maxLength: 64 },
          },
        },
        response: { 204: { type: "null" }, ...problemResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const context = admin(request, "manage partners");
      const { client_id } = await ownPartner(context, request.params.client_id);
      await partners.revokeKey(client_id, request.params.key_id).catch(refused);
      await auditTenantChange(request, context, "tenant_partner_key_revoked", {
        client_id,
        key_id: request.params.key_id,
      });
      return reply.code(204).send();
    },
  );
}

function rotatePartnerSecret(
  app: FastifyInstance,
  { partners, admin, ownPartner }: PartnerRouteKit,
): void {
  app.post<{ Params: { client_id: string } }>(
    "/v1/tenant/partners/:client_id/secret",
    {
      schema: {
        tags: TAGS,
        summary: "Rotate the partner's secret: the new one is answered once, old tokens stop",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        params: CLIENT_PARAMS,
        response: { 200: enveloped(SECRET), ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const context = admin(request, "manage partners");
      const { client_id } = await ownPartner(context, request.params.client_id);
      // Immediate, as this route has always promised ("old tokens stop"); the admin CLI's
      // rotate-secret is the one with a grace period.
      const { clientSecret: secret } = await partners.rotateSecret(client_id, 0);
      await auditTenantChange(request, context, "tenant_partner_secret_rotated", { client_id });
      reply.header("cache-control", "no-store");
      return { data: { client_id, client_secret: secret } };
    },
  );
}

function setPartnerStatus(
  app: FastifyInstance,
  { partners, admin, ownPartner }: PartnerRouteKit,
): void {
  app.patch<{ Params: { client_id: string }; Body: { status: "active" | "disabled" } }>(
    "/v1/tenant/partners/:client_id",
    {
      schema: {
        tags: TAGS,
        summary: "Disable or enable the partner (disabled: every request refused at once)",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        params: CLIENT_PARAMS,
        body: {
          type: "object",
          required: ["status"],
          additionalProperties: false,
          properties: { status: { type: "string", enum: ["active", "disabled"] } },
        },
        response: { 200: enveloped(PARTNER), ...problemResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const context = admin(request, "manage partners");
      const { client_id } = await ownPartner(context, request.params.client_id);
      await partners.setStatus(client_id, request.body.status);
      await auditTenantChange(request, context, "tenant_partner_status", {
        client_id,
        status: request.body.status,
      });
      return { data: view(await ownPartner(context, client_id)) };
    },
  );
}
