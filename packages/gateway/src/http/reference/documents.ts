import { CODE_SAMPLES, OPERATION_EXAMPLES, OPERATION_IDS, PROBLEM_EXAMPLES } from "./examples.js";
import { PARTNER_GUIDE } from "./guide.js";
import { WEBHOOKS_GUIDE } from "./webhooks-guide.js";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is open-ended JSON.
type Json = any;

export type Audience = "partner" | "tenant" | "webhooks";

const AUDIENCES: Record<
  Audience,
  {
    title: string;
    description: string;
    paths: (path: string) => boolean;
    schemes: string[];
    /** Whether the audience receives the webhooks (the document's `webhooks`). */
    webhooks: boolean;
  }
> = {
  partner: {
    title: "Orderline Partner API",
    description: PARTNER_GUIDE,
    paths: (path) => path.startsWith("/api/v1/") || path === "/.well-known/jwks.json",
    schemes: ["X-CLIENT-ID", "X-TIMESTAMP", "X-SIGNATURE", "JWT-auth"],
    webhooks: true,
  },
  tenant: {
    title: "Orderline Tenant API",
    description:
      "The API behind a tenant's front ends: user sign-in, the user's profile, the tenant's vocabulary and its partners' orders, with user tokens. Partners use the [partner API](/docs).",
    paths: (path) => path.startsWith("/v1/"),
    schemes: ["User-JWT"],
    webhooks: false,
  },
  webhooks: {
    title: "Orderline webhooks for partners",
    description: WEBHOOKS_GUIDE,
    paths: () => false,
    schemes: [],
    webhooks: true,
  },
};

const METHODS = ["get", "put", "post", "patch", "delete"];

/** Fastify's placeholder for a success response without a description. */
const SUCCESS_DESCRIPTIONS: Record<string, string> = { "200": "Success", "201": "Created" };

/** "POST /api/v1/sales-orders/{id}" → "postApiV1SalesOrdersId", for routes without a chosen id. */
function derivedOperationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join("");
}

function withExample(content: Json, example: unknown): Json {
  if (content === undefined || example === undefined) return content;
  return Object.fromEntries(
    Object.entries(content).map(([type, media]) => [type, { ...(media as Json), example }]),
  );
}

/**
 * One audience's reference document, derived from the gateway's full OpenAPI document: only its
 * paths, tags and security schemes, a chosen operationId on every operation, an example on every
 * request body and response, code samples, the guide, and `servers` naming this gateway.
 */
export function referenceDocument(full: Json, audience: Audience, serverUrl: string): Json {
  const spec = AUDIENCES[audience];
  const paths: Json = {};
  const usedTags = new Set<string>();
  for (const [path, item] of Object.entries(full.paths ?? {}) as [string, Json][]) {
    if (!spec.paths(path)) continue;
    const out: Json = {};
    for (const [method, operation] of Object.entries(item) as [string, Json][]) {
      if (!METHODS.includes(method)) {
        out[method] = operation;
        continue;
      }
      const operationId =
        OPERATION_IDS[`${method.toUpperCase()} ${path}`] ?? derivedOperationId(method, path);
      const examples = OPERATION_EXAMPLES[operationId];
      const responses = Object.fromEntries(
        Object.entries(operation.responses ?? {}).map(([status, response]) => {
          const example = examples?.responses[status] ?? PROBLEM_EXAMPLES[status];
          const r = response as Json;
          const description =
            r.description === "Default Response"
              ? (SUCCESS_DESCRIPTIONS[status] ?? r.description)
              : r.description;
          return [status, { ...r, description, content: withExample(r.content, example) }];
        }),
      );
      for (const tag of operation.tags ?? []) usedTags.add(tag);
      out[method] = {
        ...operation,
        operationId,
        responses,
        ...(operation.requestBody
          ? {
              requestBody: {
                ...operation.requestBody,
                content: withExample(operation.requestBody.content, examples?.request),
              },
            }
          : {}),
        ...(CODE_SAMPLES[operationId] ? { "x-codeSamples": CODE_SAMPLES[operationId] } : {}),
      };
    }
    paths[path] = out;
  }
  const schemes = full.components?.securitySchemes ?? {};
  const { webhooks, ...rest } = full;
  if (spec.webhooks && webhooks !== undefined)
    for (const item of Object.values(webhooks) as Json[])
      for (const tag of item.post?.tags ?? []) usedTags.add(tag);
  return {
    ...rest,
    ...(spec.webhooks && webhooks !== undefined ? { webhooks } : {}),
    info: { ...full.info, title: spec.title, description: spec.description },
    servers: [{ url: serverUrl, description: "This gateway" }],
    tags: (full.tags ?? []).filter((t: Json) => usedTags.has(t.name)),
    paths,
    components: {
      ...full.components,
      securitySchemes: Object.fromEntries(
        spec.schemes.filter((name) => schemes[name]).map((name) => [name, schemes[name]]),
      ),
    },
  };
}
