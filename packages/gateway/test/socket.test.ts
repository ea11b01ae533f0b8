import { afterEach, describe, expect, it } from "vitest";
import { createPartner, order, signedHeaders, startGateway, tempDir } from "./helpers.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(dir: string, databaseUrl: string) {
  const gw = await startGateway({ dir, config: { databaseUrl } });
  const address = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  return { gw, base: address };
}

interface ApiBody {
  token: string;
  code: string;
  data: { id: string; purchase_order_no: string };
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as ApiBody,
  };
}

describe.each(storeKinds)("over a real socket (%s store)", (kind) => {
  it("logs in, creates, reads and lists an order, and keeps tokens and orders across a restart", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    let { gw, base } = await listen(dir, url);
    const partner = await createPartner(gw);

    const login = await postJson(`${base}/api/v1/auth/login`, {
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
    });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const sign = () => signedHeaders(partner, token, String(Math.floor(Date.now() / 1000)));

    const created = await postJson(
      `${base}/api/v1/sales-orders`,
      order({ purchase_order_no: "PO-SOCKET" }),
      {
        ...sign(),
        "x-request-id": "trace-abc-123",
      },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("x-request-id")).toBe("trace-abc-123");
    const id = created.body.data.id as string;

    const read = await fetch(`${base}/api/v1/sales-orders/${id}`, { headers: sign() });
    expect(read.status).toBe(200);
    expect(((await read.json()) as ApiBody).data.purchase_order_no).toBe("PO-SOCKET");

    // Restart: a new process state on the same store.
    await gw.close();
    ({ gw, base } = await listen(dir, url));
    cleanups.push(() => gw.close());

    const list = await fetch(`${base}/api/v1/sales-orders`, { headers: sign() });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { data: { id: string }[] };
    expect(listed.data.map((o: { id: string }) => o.id)).toEqual([id]);

    const duplicate = await postJson(
      `${base}/api/v1/sales-orders`,
      order({ purchase_order_no: "PO-SOCKET" }),
      sign(),
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.headers.get("content-type")).toContain("application/problem+json");

    const refreshed = await postJson(`${base}/api/v1/auth/refresh`, { token });
    expect(refreshed.status).toBe(200);
    // The refresh-once record survived the restart as well.
    await gw.close();
    ({ gw, base } = await listen(dir, url));
    cleanups.push(() => gw.close());
    const reused = await postJson(`${base}/api/v1/auth/refresh`, { token });
    expect(reused.body.code).toBe("refresh_token_reused");
  });

  it("serves the OpenAPI document and the docs page", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { gw, base } = await listen(dir, await freshDatabaseUrl(kind, dir));
    cleanups.push(() => gw.close());
    const docs = await fetch(`${base}/docs`, { redirect: "follow" });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("<html");
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string };
    expect(spec.openapi).toBe("3.1.0");
  });
});
