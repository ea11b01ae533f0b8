import type { FastifyInstance, FastifyRequest } from "fastify";
import { OVERRIDE_LIMITS } from "../domain/vocabulary/overrides.js";
import {
  NAMESPACE_PATTERN,
  type VocabularyService,
  type WordState,
} from "../domain/vocabulary/service.js";
import { problemResponses } from "../http/schemas.js";
import type { UserContext } from "./authenticate.js";
import { auditTenantChange, requireRole, USER_SECURITY, userOf } from "./guard.js";

/**
 * One key of the tenant's vocabulary (tenant admins): set or reset its word in one language,
 * list its history in every language, put an earlier word back. Registered inside the
 * vocabulary plugin (vocabulary-routes.ts), whose hooks authenticate the user.
 */

const NAMESPACE_PATTERN_PARAM = { type: "string", pattern: NAMESPACE_PATTERN } as const;

const PARAMS = {
  type: "object",
  required: ["namespace", "key"],
  additionalProperties: false,
  properties: {
    namespace: NAMESPACE_PATTERN_PARAM,
    key: {
      type: "string",
      minLength: 1,
      maxLength: 512,
      description: "The dotted key path, e.g. list.title or pager.page",
    },
  },
} as const;

const LANGUAGE = { type: "string", minLength: 1, maxLength: 35, description: "BCP 47 tag" };

const WORD_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      type: "object",
      required: ["namespace", "language", "key", "text", "previous"],
      properties: {
        namespace: { type: "string" },
        language: { type: "string" },
        key: { type: "string" },
        text: { type: ["string", "null"], description: "The word now; null: the standard text" },
        previous: { type: ["string", "null"], description: "The word before this change" },
      },
    },
  },
} as const;

const HISTORY_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "language", "text", "change", "changed_at", "changed_by"],
        properties: {
          id: { type: "string", description: "Give it to …/revert to put this word back" },
          language: { type: "string" },
          text: {
            type: ["string", "null"],
            description: "The word after the change; null: the standard text",
          },
          change: { type: "string", enum: ["set", "reset", "revert", "replace", "import"] },
          changed_at: { type: "string", format: "date-time" },
          changed_by: { type: ["string", "null"], description: "The user's email; null: the CLI" },
        },
      },
    },
  },
} as const;

type KeyParams = { namespace: string; key: string };

/** The helpers every key route shares: the admin check with the key's place, the audit line. */
const keyRouteTools = () => {
  const admin = (request: FastifyRequest<{ Params: KeyParams }>) => {
    const context = userOf(request);
    requireRole(context, "admin", "change the tenant's vocabulary");
    return { context, place: { tenantId: context.tenant.id, ...request.params } };
  };
  const audit = (request: FastifyRequest, context: UserContext, event: string, word: WordState) =>
    auditTenantChange(
      request,
      context,
      event,
      { namespace: word.namespace, language: word.language, key: word.key },
      "tenant vocabulary changed",
    );
  return { admin, audit };
};

const tags = ["Tenant vocabulary"];

export function vocabularyKeyRoutes(app: FastifyInstance, vocabulary: VocabularyService): void {
  wordRoutes(app, vocabulary);
  historyRoutes(app, vocabulary);
}

/** PUT and DELETE of one key's word. */
function wordRoutes(app: FastifyInstance, vocabulary: VocabularyService): void {
  const { admin, audit } = keyRouteTools();
  app.put<{ Params: KeyParams; Body: { language: string; text: string } }>(
    "/v1/tenant/i18n-config/:namespace/keys/:key",
    {
      config: { multilineText: (path) => path[0] === "text" },
      schema: {
        tags,
        summary: "Set the tenant's word for one key in one language (tenant admins)",
        description:
          "Changes this key only; the namespace's other words stay. A word using a placeholder its standard " +
          "text does not fill in (e.g. {{evil}}) is refused with 400 placeholder_unknown, naming the allowed " +
          "ones at /text. Recorded in the key's history and audited.",
        security: USER_SECURITY,
        params: PARAMS,
        body: {
          type: "object",
          required: ["language", "text"],
          additionalProperties: false,
          properties: {
            language: LANGUAGE,
            text: { type: "string", minLength: 1, maxLength: OVERRIDE_LIMITS.maxStringLength },
          },
        },
        response: { 200: WORD_RESPONSE, ...problemResponses(400, 401, 403, 409, 415, 422) },
      },
    },
    async (request) => {
      const { context, place } = admin(request);
      const word = await vocabulary.setWord(
        { ...place, language: request.body.language },
        request.body.text,
        context.user.id,
      );
      audit(request, context, "vocabulary_word_set", word);
      return { data: word };
    },
  );

  app.delete<{ Params: KeyParams; Querystring: { language: string } }>(
    "/v1/tenant/i18n-config/:namespace/keys/:key",
    {
      schema: {
        tags,
        summary: "Put the standard text back for one key in one language (tenant admins)",
        security: USER_SECURITY,
        params: PARAMS,
        querystring: {
          type: "object",
          required: ["language"],
          additionalProperties: false,
          properties: { language: LANGUAGE },
        },
        response: { 200: WORD_RESPONSE, ...problemResponses(400, 401, 403, 409, 422) },
      },
    },
    async (request) => {
      const { context, place } = admin(request);
      const word = await vocabulary.setWord(
        { ...place, language: request.query.language },
        null,
        context.user.id,
      );
      audit(request, context, "vocabulary_word_reset", word);
      return { data: word };
    },
  );
}

/** A key's history and the revert to one of its entries. */
function historyRoutes(app: FastifyInstance, vocabulary: VocabularyService): void {
  const { admin, audit } = keyRouteTools();
  app.get<{ Params: KeyParams }>(
    "/v1/tenant/i18n-config/:namespace/keys/:key/history",
    {
      schema: {
        tags,
        summary: "A key's history in every language, newest first (tenant admins)",
        security: USER_SECURITY,
        params: PARAMS,
        response: { 200: HISTORY_RESPONSE, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { place } = admin(request);
      return { data: await vocabulary.history(place.tenantId, place.namespace, place.key) };
    },
  );

  app.post<{ Params: KeyParams; Body: { history_id: string } }>(
    "/v1/tenant/i18n-config/:namespace/keys/:key/revert",
    {
      schema: {
        tags,
        summary: "Put back the word a history entry of this key recorded (tenant admins)",
        description:
          "In the entry's language; the revert is a new history entry and is audited. An entry of " +
          "another key or tenant answers 404 vocabulary_change_not_found.",
        security: USER_SECURITY,
        params: PARAMS,
        body: {
          type: "object",
          required: ["history_id"],
          additionalProperties: false,
          properties: { history_id: { type: "string", pattern: "^[1-9][0-9]{0,15}$" } },
        },
        response: { 200: WORD_RESPONSE, ...problemResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => {
      const { context, place } = admin(request);
      const word = await vocabulary.revert(place, Number(request.body.history_id), context.user.id);
      audit(request, context, "vocabulary_word_reverted", word);
      return { data: word };
    },
  );
}
