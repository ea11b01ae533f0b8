import type { FastifyInstance } from "fastify";
import { FAVICON_SVG, redocBundle } from "./assets.js";
import { referenceDocument } from "./documents.js";
import { referencePage } from "./page.js";
import { SIGNER_CSP, SIGNER_HTML, SIGNER_JS } from "./signer-page.js";

const hidden = { schema: { hide: true } } as const;

/**
 * The API references: /docs (partner API), /docs/tenant and /docs/webhooks (the partner's
 * webhooks guide with every event's payload), each rendering its own OpenAPI document
 * (/openapi/partner.json, /openapi/tenant.json, /openapi/webhooks.json), and /docs/signer,
 * which signs and sends a partner request in the browser. /openapi.json stays the whole API.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  app.get("/docs/assets/redoc.standalone.js", hidden, (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(redocBundle()),
  );
  app.get("/favicon.ico", hidden, (_request, reply) =>
    reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON_SVG),
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
  for (const audience of ["partner", "tenant", "webhooks"] as const) {
    const { html, csp } = referencePage(audience);
    app.get(audience === "partner" ? "/docs" : `/docs/${audience}`, hidden, (_request, reply) =>
      reply.type("text/html; charset=utf-8").header("content-security-policy", csp).send(html),
    );
    app.get(`/openapi/${audience}.json`, hidden, async (request) =>
      referenceDocument(app.swagger(), audience, `${request.protocol}://${request.host}`),
    );
  }
}
