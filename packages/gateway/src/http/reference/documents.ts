import { PARTNER_CODES } from "../problem-audiences.js";
import { type CodeSample, PARTNER_CODE_SAMPLES } from "./code-samples.js";
import { nameSchemas } from "./components.js";
import { OPERATION_EXAMPLES, OPERATION_IDS, PROBLEM_EXAMPLES } from "./examples.js";
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
    /** Code samples by operation id. */
    samples?: Record<string, CodeSample[]>;
    /** The Problem `code`s the audience can meet; every code when not given. */
    problemCodes?: readonly string[];
  }
> = {
  partner: {
    title: "Orderline Partner API",
    description: PARTNER_GUIDE,
    paths: (path) => path.startsWith("/api/v1/") || path === "/.well-known/jwks.json",
    schemes: ["X-CLIENT-ID", "X-TIMESTAMP", "X-SIGNATURE", "JWT-auth", "Orderline-Signature"],
    webhooks: true,
    problemCodes: PARTNER_CODES,
    samples: PARTNER_CODE_SAMPLES,
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
    schemes: ["Orderline-Signature"],
    webhooks: true,
  },
};

const METHODS = ["get", "put", "post", "patch", "delete"];

/**
 * The signing headers as parameters of every signed operation, besides the security schemes:
 * generated clients type parameters (openapi-typescript, openapi-generator), while most turn
 * apiKey schemes into a hook the caller must fill by name.
 */
const SIGNING_PARAMETERS: Record<string, Json> = {
  "X-CLIENT-ID": {
    name: "X-CLIENT-ID",
    in: "header",
    required: true,
    description: "The partner's client_id, as in the token",
    schema: { type: "string", minLength: 1 },
  },
  "X-TIMESTAMP": {
    name: "X-TIMESTAMP",
    in: "header",
    required: true,
    description:
      "The signing time: Unix seconds (Unix milliseconds and ISO-8601 with an offset are accepted too), within 300 s of the gateway's clock. Each request, retries included, is signed afresh with the current time.",
    schema: { type: "string", minLength: 1 },
  },
  "X-SIGNATURE": {
    name: "X-SIGNATURE",
    in: "header",
    required: true,
    description:
      "base64 SHA256withRSA signature of the string-to-sign of X-SIGNATURE-VERSION (see Signing requests)",
    schema: { type: "string", minLength: 1 },
  },
  "X-SIGNATURE-VERSION": {
    name: "X-SIGNATURE-VERSION",
    in: "header",
    required: false,
    description:
      "`2`: the signature covers method, path and body (recommended, the SDK's default); absent or `1`: client_id and timestamp only",
    schema: { type: "string", enum: ["1", "2"] },
  },
};

const isSigned = (operation: Json): boolean =>
  (operation.security ?? []).some((requirement: Json) => "X-SIGNATURE" in requirement);

/** The operation's parameters with the signing headers as references, when it is signed. */
function withSigningParameters(operation: Json): Json[] | undefined {
  if (!isSigned(operation)) return operation.parameters;
  const own = (operation.parameters ?? []).filter(
    (p: Json) => !(p.in === "header" && p.name in SIGNING_PARAMETERS),
  );
  return [
    ...Object.keys(SIGNING_PARAMETERS).map((name) => ({
      $ref: `#/components/parameters/${name}`,
    })),
    ...own,
  ];
}

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
      const parameters = withSigningParameters(operation);
      out[method] = {
        ...operation,
        ...(parameters ? { parameters } : {}),
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
        ...(spec.samples?.[operationId] ? { "x-codeSamples": spec.samples[operationId] } : {}),
      };
    }
    paths[path] = out;
  }
  const schemes = full.components?.securitySchemes ?? {};
  const { webhooks: allWebhooks, ...rest } = full;
  const webhooks = spec.webhooks ? allWebhooks : undefined;
  for (const item of Object.values(webhooks ?? {}) as Json[])
    for (const tag of item.post?.tags ?? []) usedTags.add(tag);
  const named = nameSchemas(paths, webhooks ?? {});
  const problem = named.schemas.Problem;
  if (problem && spec.problemCodes)
    named.schemas.Problem = {
      ...problem,
      properties: { ...problem.properties, code: { type: "string", enum: spec.problemCodes } },
    };
  const signed = Object.values(paths).some((item) =>
    Object.values(item as Json).some((operation) => isSigned(operation)),
  );
  return {
    ...rest,
    ...(webhooks !== undefined ? { webhooks: named.webhooks } : {}),
    info: { ...full.info, title: spec.title, description: spec.description },
    servers: [{ url: serverUrl, description: "This gateway" }],
    tags: (full.tags ?? []).filter((t: Json) => usedTags.has(t.name)),
    paths: named.paths,
    components: {
      ...full.components,
      schemas: named.schemas,
      ...(signed ? { parameters: SIGNING_PARAMETERS } : {}),
      securitySchemes: Object.fromEntries(
        spec.schemes.filter((name) => schemes[name]).map((name) => [name, schemes[name]]),
      ),
    },
  };
}
