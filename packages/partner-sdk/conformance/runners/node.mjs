// The conformance runner for the Node SDK (the built package): see ../README.md.
import { readFileSync } from "node:fs";
import {
  createPartnerClient,
  PartnerApiError,
  verifyWebhook,
  WebhookSignatureError,
} from "../../dist/index.js";

const input = JSON.parse(readFileSync(0, "utf8"));

function clientFor(step) {
  const settings = { ...input, ...step.client };
  return createPartnerClient({
    baseUrl: settings.base_url,
    clientId: settings.client_id,
    clientSecret: settings.client_secret,
    privateKey: readFileSync(settings.private_key_file, "utf8"),
    signatureVersion: 2,
    signLogin: settings.sign_login ?? true,
    retryBaseDelayMs: 20,
  });
}

function errorOf(error) {
  if (error instanceof PartnerApiError) {
    const hints = Array.isArray(error.problem.hints) ? error.problem.hints.map((h) => h.code) : [];
    const text = error.problem.string_to_sign;
    return {
      type: "api",
      status: error.status,
      code: error.code,
      attempts: error.attempts,
      hints,
      string_to_sign_version: typeof text === "string" ? text.split("\n")[0] : null,
    };
  }
  return { type: "network", attempts: error.attempts ?? 0, message: String(error.message) };
}

const ops = {
  async create_order(step) {
    const order = await clientFor(step).salesOrders.create(step.order, {
      ...(step.idempotency_key ? { idempotencyKey: step.idempotency_key } : {}),
    });
    return {
      ok: true,
      order: {
        id: order.id,
        order_number: order.order_number,
        purchase_order_no: order.purchase_order_no,
      },
    };
  },
  async list_all(step) {
    const ids = [];
    for await (const order of clientFor(step).salesOrders.iterate({ pageSize: step.page_size })) {
      ids.push(order.id);
    }
    return { ok: true, ids };
  },
  async request_log_failed(step) {
    const client = clientFor(step);
    let refused = [];
    for (let i = 0; i < 100; i++) {
      refused = await client.requestLog.failed({ limit: step.limit });
      if (refused.some((r) => r.code === step.until_code)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      ok: true,
      refused: refused.map((r) => ({
        code: r.code,
        hints: (r.expected?.hints ?? []).map((h) => h.code),
      })),
    };
  },
  async verify_webhook(step) {
    try {
      const event = verifyWebhook({
        payload: step.payload,
        header: step.header,
        secret: step.secret,
      });
      return { ok: true, event_id: event.id };
    } catch (error) {
      if (error instanceof WebhookSignatureError) return { ok: false, reason: error.reason };
      throw error;
    }
  },
  async stream(step) {
    const controller = new AbortController();
    const events = [];
    const stream = clientFor(step).events.stream({
      lastEventId: step.last_event_id,
      signal: controller.signal,
    });
    for await (const event of stream) {
      events.push({ id: event.id, type: event.type });
      if (events.length === step.count) break;
    }
    controller.abort();
    return { ok: true, events };
  },
};

const results = [];
for (const step of input.steps) {
  try {
    results.push(await ops[step.op](step));
  } catch (error) {
    if (error instanceof TypeError) throw error;
    results.push({ ok: false, error: errorOf(error) });
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`);
