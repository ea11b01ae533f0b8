import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { referenceDocument } from "./documents.js";
import { referencePage } from "./page.js";
import { SIGNER_CSP, SIGNER_HTML, SIGNER_JS } from "./signer-page.js";

const REDOC_BUNDLE = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
const hidden = { schema: { hide: true } } as const;

/**
 * The API references: /docs (partner API) and /docs/tenant, each rendering its own OpenAPI
 * document (/openapi/partner.json, /openapi/tenant.json), and /docs/signer, which signs and
 * sends a partner request in the browser. /openapi.json stays the whole API.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  app.get("/docs/assets/redoc.standalone.js", hidden, (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(createReadStream(REDOC_BUNDLE)),
  );
  app.get("/docs/signer", hidden, (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", SIGNER_CSP)
      .send(SIGNER_HTML),
  );
  app.get("/docs/assets/signer.js", hidden, (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(SIGNER_JS),
  );
  for (const audience of ["partner", "tenant"] as const) {
    const { html, csp } = referencePage(audience);
    app.get(audience === "partner" ? "/docs" : "/docs/tenant", hidden, (_request, reply) =>
      reply.type("text/html; charset=utf-8").header("content-security-policy", csp).send(html),
    );
    app.get(`/openapi/${audience}.json`, hidden, async (request) =>
      referenceDocument(app.swagger(), audience, `${request.protocol}://${request.host}`),
    );
  }
}
