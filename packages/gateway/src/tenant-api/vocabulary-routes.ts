import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OVERRIDE_LIMITS } from "../domain/vocabulary/overrides.js";
import {
  DEFAULT_NAMESPACE,
  NAMESPACE_PATTERN,
  noneMatch,
  type VocabularyService,
} from "../domain/vocabulary/service.js";
import { problemResponses } from "../http/schemas.js";
import type { UserAuthenticator } from "./authenticate.js";
import {
  auditTenantChange,
  NO_QUERY,
  requireRole,
  requireUser,
  USER_SECURITY,
  userOf,
} from "./guard.js";
import { vocabularyKeyRoutes } from "./vocabulary-key-routes.js";

const NAMESPACE = {
  type: "string",
  pattern: NAMESPACE_PATTERN,
  description: "The dictionary namespace (as registered in the front end), e.g. common, booking",
} as const;

const OVERRIDES_SCHEMA = {
  type: "object",
  description:
    `Nested keys ending in replacement strings; only the keys to change. At most ${OVERRIDE_LIMITS.maxDepth} ` +
    `levels and ${OVERRIDE_LIMITS.maxStringLength} characters per string; keys without '.', never __proto__, ` +
    "constructor or prototype. A namespace's keys and bytes per language, and the namespaces of a tenant, are " +
    "bounded by the vocabulary shares (2000 keys, 256 KiB and 50 namespaces by default), whichever route writes.",
  additionalProperties: true,
} as const;

const CONFIG_RESPONSE = {
  description: "The tenant's overrides for the namespace, in `data.language`",
  headers: {
    // @fastify/swagger wraps each header's JSON Schema in `schema` itself.
    ETag: { type: "string", description: "Strong validator; send as If-None-Match" },
    "Content-Language": { type: "string", description: "The language of `data`" },
  },
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["data"],
        properties: {
          data: {
            type: "object",
            required: ["namespace", "language", "overrides"],
            properties: {
              namespace: { type: "string" },
              language: { type: "string", description: "The language the words are in" },
              overrides: OVERRIDES_SCHEMA,
            },
          },
        },
      },
    },
  },
} as const;

const PUT_BODY = {
  type: "object",
  required: ["language", "overrides"],
  additionalProperties: false,
  properties: {
    language: { type: "string", minLength: 1, maxLength: 35, description: "BCP 47 tag" },
    overrides: OVERRIDES_SCHEMA,
  },
} as const;

const PUT_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      type: "object",
      required: ["namespace", "language", "overrides", "changes"],
      properties: {
        namespace: { type: "string" },
        language: { type: "string" },
        overrides: OVERRIDES_SCHEMA,
        changes: {
          type: "object",
          description: "Dotted key paths, compared with the overrides this request replaced",
          required: ["added", "changed", "removed"],
          properties: {
            added: { type: "array", items: { type: "string" } },
            changed: { type: "array", items: { type: "string" } },
            removed: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  },
} as const;

const LANGUAGE_QUERY = {
  type: "object",
  additionalProperties: false,
  properties: {
    language: {
      type: "string",
      minLength: 1,
      maxLength: 35,
      description:
        "The language wanted instead of the profile's (BCP 47, one of the supported languages)",
    },
  },
} as const;

interface TenantRoutesOptions {
  vocabulary: VocabularyService;
  authenticator: UserAuthenticator;
}

/** /v1/tenant/i18n-config: the signed-in user's tenant vocabulary (the tenant from the token). */
export async function tenantRoutes(
  app: FastifyInstance,
  { vocabulary, authenticator }: TenantRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  const get = async (
    request: FastifyRequest<{ Querystring: { language?: string } }>,
    reply: FastifyReply,
    namespace: string,
  ) => {
    const { user, tenant } = userOf(request);
    const language = vocabulary.languageFor(user.language, request.query.language);
    const representation = await vocabulary.read(tenant.id, namespace, language);
    reply
      .header("etag", representation.etag)
      .header("cache-control", "private, no-cache")
      .header("vary", "Authorization")
      .header("content-language", representation.language);
    if (noneMatch(request.headers["if-none-match"], representation.etag)) {
      return reply.code(304).send();
    }
    return reply.type("application/json; charset=utf-8").send(representation.json);
  };

  const description =
    "The tenant is the one of the token's user; a query parameter, body property or header naming a tenant " +
    "is refused (400 tenant_parameter_refused). The words are in the user's profile language, or in the " +
    "`language` the query asks for (422 language_unsupported when it is not supported); Accept-Language is " +
    "ignored, since browsers send it by themselves. `data.language` and Content-Language name the language. " +
    "Send the ETag back as If-None-Match for a 304.";
  const getSchema = {
    tags: ["Tenant vocabulary"],
    security: USER_SECURITY,
    description,
    querystring: LANGUAGE_QUERY,
    response: {
      200: CONFIG_RESPONSE,
      304: { description: "Not modified: the If-None-Match tag is current", type: "null" },
      ...problemResponses(400, 401, 422),
    },
  };

  app.get<{ Querystring: { language?: string } }>(
    "/v1/tenant/i18n-config",
    { schema: { ...getSchema, summary: "The tenant's overrides of the common namespace" } },
    (request, reply) => get(request, reply, DEFAULT_NAMESPACE),
  );

  app.get<{ Params: { namespace: string }; Querystring: { language?: string } }>(
    "/v1/tenant/i18n-config/:namespace",
    {
      schema: {
        ...getSchema,
        summary: "The tenant's overrides of a namespace",
        params: {
          type: "object",
          required: ["namespace"],
          additionalProperties: false,
          properties: { namespace: NAMESPACE },
        },
      },
    },
    (request, reply) => get(request, reply, request.params.namespace),
  );

  app.put<{ Params: { namespace: string }; Body: { language: string; overrides: unknown } }>(
    "/v1/tenant/i18n-config/:namespace",
    {
      // Translations may run over several lines; keys and the language stay on one.
      config: { multilineText: (path) => path[0] === "overrides" && path.length > 1 },
      schema: {
        tags: ["Tenant vocabulary"],
        summary: "Replace the tenant's overrides of a namespace in one language (tenant admins)",
        description:
          "Replaces the overrides of this namespace and language (an empty object removes them) and answers " +
          "with what changed. Tenant admins only (403 role_forbidden). A key __proto__, constructor or " +
          "prototype, a non-string leaf, or a tree beyond the limits is refused (400) and changes nothing.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        params: {
          type: "object",
          required: ["namespace"],
          additionalProperties: false,
          properties: { namespace: NAMESPACE },
        },
        body: PUT_BODY,
        response: { 200: PUT_RESPONSE, ...problemResponses(400, 401, 403, 409, 413, 415, 422) },
      },
    },
    async (request) => {
      const context = userOf(request);
      requireRole(context, "admin", "change the tenant's vocabulary");
      const namespace = request.params.namespace;
      const result = await vocabulary.replace(
        context.tenant.id,
        namespace,
        request.body.language,
        request.body.overrides,
        context.user.id,
      );
      auditTenantChange(
        request,
        context,
        "overrides_replaced",
        {
          namespace,
          language: result.language,
          added: result.changes.added.length,
          changed: result.changes.changed.length,
          removed: result.changes.removed.length,
        },
        "tenant overrides replaced",
      );
      return { data: { namespace, ...result } };
    },
  );

  vocabularyKeyRoutes(app, vocabulary);
}
