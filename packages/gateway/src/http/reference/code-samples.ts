/**
 * The partner reference's code samples: every partner operation in shell (curl + openssl), Node
 * (the SDK), Python and Java, each a whole program a partner can run as it is. They are built
 * from one description per operation and one template per language, so that the signing code
 * is written once per language; test/code-samples.test.ts runs every one against a gateway.
 */

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

interface Operation {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path; `{ORDER_ID}`, `{ENDPOINT_ID}`, `{EVENT_ID}` are read from the environment. */
  path: string;
  /** The JSON body, if any. */
  body?: unknown;
  /** Signed (all but the authentication operations). */
  signed: boolean;
  /** Sends an Idempotency-Key (creates). */
  idempotent?: boolean;
  /** The Node sample's lines after `client` is made (the SDK call). */
  node: string;
  /** The answer is an event stream: the samples print the first event and stop. */
  stream?: boolean;
}

const ORDER = {
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Dana Sales",
  address: "1 Harbour Road, Springfield",
  products: [{ product_code: "SKU-1001", quantity: 3, uom: "EA", unit_price: 12.5 }],
};
const ENDPOINT = {
  url: "https://erp.acme.example/orderline/webhooks",
  events: ["order.created", "order.cancelled"],
};
const js = (value: unknown) => JSON.stringify(value, null, 2);

const OPERATIONS: Record<string, Operation> = {
  login: {
    method: "POST",
    path: "/api/v1/auth/login",
    signed: false,
    node: "// The client logs in by itself before its first call (and signs the login with the key).\nconsole.log(await client.login());",
  },
  refreshToken: {
    method: "POST",
    path: "/api/v1/auth/refresh",
    signed: false,
    node: '// The client renews its token by itself before it expires; by hand:\nconst { token } = await client.login();\nconst response = await fetch(new URL("/api/v1/auth/refresh", process.env.ORDERLINE_BASE_URL), {\n  method: "POST",\n  headers: { "content-type": "application/json" },\n  body: JSON.stringify({ token }),\n});\nconsole.log(response.status, await response.json());',
  },
  getTokenKeys: {
    method: "GET",
    path: "/.well-known/jwks.json",
    signed: false,
    node: '// Public: no client needed.\nconst response = await fetch(new URL("/.well-known/jwks.json", process.env.ORDERLINE_BASE_URL));\nconsole.log(await response.json());',
  },
  createSalesOrder: {
    method: "POST",
    path: "/api/v1/sales-orders",
    body: ORDER,
    signed: true,
    idempotent: true,
    node: `// An Idempotency-Key is sent by itself and kept for the retries.\nconst order = await client.salesOrders.create(${js(ORDER)});\nconsole.log(order.order_number, order.id);`,
  },
  listSalesOrders: {
    method: "GET",
    path: "/api/v1/sales-orders?limit=20",
    signed: true,
    node: "const page = await client.salesOrders.list({ limit: 20 });\nconsole.log(page.data.map((o) => o.order_number), page.next_cursor);\n// Every order, page after page: for await (const o of client.salesOrders.iterate()) …",
  },
  getSalesOrder: {
    method: "GET",
    path: "/api/v1/sales-orders/{ORDER_ID}",
    signed: true,
    node: "const order = await client.salesOrders.get(process.env.ORDER_ID);\nconsole.log(order.status, order.history);",
  },
  cancelSalesOrder: {
    method: "POST",
    path: "/api/v1/sales-orders/{ORDER_ID}/cancel",
    body: { reason: "Customer withdrew the order" },
    signed: true,
    node: 'const order = await client.salesOrders.cancel(process.env.ORDER_ID, {\n  reason: "Customer withdrew the order",\n});\nconsole.log(order.status);',
  },
  listWebhookEndpoints: {
    method: "GET",
    path: "/api/v1/webhook-endpoints",
    signed: true,
    node: "console.log(await client.webhookEndpoints.list());",
  },
  createWebhookEndpoint: {
    method: "POST",
    path: "/api/v1/webhook-endpoints",
    body: ENDPOINT,
    signed: true,
    node: `const endpoint = await client.webhookEndpoints.create(${js(ENDPOINT)});\n// The secret is shown once: keep it where the receiver reads it.\nconsole.log(endpoint.id, endpoint.secret);`,
  },
  getWebhookEndpoint: {
    method: "GET",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}",
    signed: true,
    node: "console.log(await client.webhookEndpoints.get(process.env.ENDPOINT_ID));",
  },
  updateWebhookEndpoint: {
    method: "PATCH",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}",
    body: { enabled: false },
    signed: true,
    node: "console.log(await client.webhookEndpoints.update(process.env.ENDPOINT_ID, { enabled: false }));",
  },
  deleteWebhookEndpoint: {
    method: "DELETE",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}",
    signed: true,
    node: 'await client.webhookEndpoints.delete(process.env.ENDPOINT_ID);\nconsole.log("deleted");',
  },
  rotateWebhookSecret: {
    method: "POST",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}/secret",
    signed: true,
    node: "const { secret, previous_valid_until } = await client.webhookEndpoints.rotateSecret(\n  process.env.ENDPOINT_ID,\n);\nconsole.log(secret, previous_valid_until);",
  },
  listWebhookDeliveries: {
    method: "GET",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}/deliveries?limit=20",
    signed: true,
    node: "console.log(await client.webhookEndpoints.deliveries(process.env.ENDPOINT_ID, { limit: 20 }));",
  },
  resendWebhookEvent: {
    method: "POST",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}/deliveries/{EVENT_ID}/resend",
    signed: true,
    node: 'await client.webhookEndpoints.resend(process.env.ENDPOINT_ID, process.env.EVENT_ID);\nconsole.log("queued");',
  },
  testWebhookEndpoint: {
    method: "POST",
    path: "/api/v1/webhook-endpoints/{ENDPOINT_ID}/test",
    signed: true,
    node: "console.log(await client.webhookEndpoints.test(process.env.ENDPOINT_ID));",
  },
  listRefusedRequests: {
    method: "GET",
    path: "/api/v1/request-log?outcome=failed&limit=20",
    signed: true,
    node: "for (const refused of await client.requestLog.failed({ limit: 20 }))\n  console.log(refused.at, refused.code, refused.expected);",
  },
  streamEvents: {
    method: "GET",
    path: "/api/v1/events/stream",
    signed: true,
    stream: true,
    node: "// Reconnects by itself with Last-Event-ID: none lost, none twice.\nfor await (const event of client.events.stream()) {\n  console.log(event.type, event.id, event.data);\n  break; // a sample: the first event is enough\n}",
  },
};

const ENV_NOTE =
  "ORDERLINE_BASE_URL, ORDERLINE_CLIENT_ID, ORDERLINE_CLIENT_SECRET, ORDERLINE_PRIVATE_KEY_FILE";

/** The placeholders a path reads from the environment. */
const placeholders = (path: string): string[] =>
  [...path.matchAll(/\{([A-Z_]+)\}/g)].map((m) => m[1] as string);

const needs = (op: Operation) => [ENV_NOTE, ...placeholders(op.path)].join(", ");

function shell(op: Operation): string {
  const target = op.path.replace(/\{([A-Z_]+)\}/g, "$$$1");
  const body = op.body === undefined ? "" : JSON.stringify(op.body);
  const login = `TOKEN=$(curl -sS --fail-with-body -X POST "$ORDERLINE_BASE_URL/api/v1/auth/login" \\
  -H 'Content-Type: application/json' \\
  -d "{\\"client_id\\":\\"$ORDERLINE_CLIENT_ID\\",\\"client_secret\\":\\"$ORDERLINE_CLIENT_SECRET\\"}" | jq -r .token)`;
  const head = `# Needs curl, openssl, jq and ${needs(op)}.\nset -euo pipefail\n`;
  if (!op.signed) {
    if (op.path === "/api/v1/auth/login") return `${head}${login}\necho "$TOKEN"`;
    if (op.path === "/api/v1/auth/refresh")
      return `${head}${login}\ncurl -sS --fail-with-body -X POST "$ORDERLINE_BASE_URL/api/v1/auth/refresh" \\
  -H 'Content-Type: application/json' -d "{\\"token\\":\\"$TOKEN\\"}"`;
    return `${head}curl -sS --fail-with-body "$ORDERLINE_BASE_URL${target}"`;
  }
  const data =
    op.body === undefined ? "" : ` -H 'Content-Type: application/json' --data-binary "$BODY"`;
  const send = op.stream
    ? `curl -sSN --fail-with-body -H 'Accept: text/event-stream' "$ORDERLINE_BASE_URL$TARGET" \\
  -H "Authorization: Bearer $TOKEN" -H "X-CLIENT-ID: $ORDERLINE_CLIENT_ID" -H "X-TIMESTAMP: $TIMESTAMP" \\
  -H 'X-SIGNATURE-VERSION: 2' -H "X-SIGNATURE: $SIGNATURE" | grep -m1 -A1 '^event:' || true`
    : `curl -sS --fail-with-body -X ${op.method} "$ORDERLINE_BASE_URL$TARGET"${data} \\
  -H "Authorization: Bearer $TOKEN" -H "X-CLIENT-ID: $ORDERLINE_CLIENT_ID" -H "X-TIMESTAMP: $TIMESTAMP" \\
  -H 'X-SIGNATURE-VERSION: 2' -H "X-SIGNATURE: $SIGNATURE"${op.idempotent ? ' \\\n  -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)"' : ""}`;
  return `${head}${login}
TARGET="${target}"  # the path with its query, exactly as sent
BODY='${body}'  # the exact body bytes (empty: none)
TIMESTAMP=$(date +%s)  # a new one for every request, retries included
DIGEST=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)
SIGNATURE=$(printf 'v2\\n%s\\n%s\\n${op.method}\\n%s\\n%s' "$ORDERLINE_CLIENT_ID" "$TIMESTAMP" "$TARGET" "$DIGEST" \\
  | openssl dgst -sha256 -sign "$ORDERLINE_PRIVATE_KEY_FILE" | openssl base64 -A)
${send}`;
}

function node(op: Operation): string {
  const client = `import { readFileSync } from "node:fs";
import { createPartnerClient } from "@orderline/partner-sdk";

// Needs ${needs(op)}.
const client = createPartnerClient({
  baseUrl: process.env.ORDERLINE_BASE_URL,
  clientId: process.env.ORDERLINE_CLIENT_ID,
  clientSecret: process.env.ORDERLINE_CLIENT_SECRET,
  privateKey: readFileSync(process.env.ORDERLINE_PRIVATE_KEY_FILE, "utf8"),
});
`;
  return `${client}${op.node}`;
}

const PYTHON_HELPER = `import base64, hashlib, json, os, time, urllib.error, urllib.request, uuid
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

BASE_URL = os.environ["ORDERLINE_BASE_URL"].rstrip("/")
CLIENT_ID = os.environ["ORDERLINE_CLIENT_ID"]


def call(method, target, body=None, token=None, headers=None):
    """One request; signed (version 2) when a token is given. Answers (status, response)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"Accept": "application/json", **(headers or {})}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if token is not None:
        with open(os.environ["ORDERLINE_PRIVATE_KEY_FILE"], "rb") as f:
            key = serialization.load_pem_private_key(f.read(), password=None)
        timestamp = str(time.time_ns() // 1_000_000)  # Unix ms (or s); new for every request and retry
        digest = hashlib.sha256(data or b"").hexdigest()
        text = "\\n".join(["v2", CLIENT_ID, timestamp, method, target, digest])
        signature = key.sign(text.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
        headers.update({
            "Authorization": "Bearer " + token,
            "X-CLIENT-ID": CLIENT_ID,
            "X-TIMESTAMP": timestamp,
            "X-SIGNATURE-VERSION": "2",
            "X-SIGNATURE": base64.b64encode(signature).decode("ascii"),
        })
    request = urllib.request.Request(BASE_URL + target, data=data, method=method, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:  # a problem+json: code, detail, request_id
        return error.code, json.loads(error.read() or b"null")
    return response.status, response


def login():
    status, response = call("POST", "/api/v1/auth/login", {
        "client_id": CLIENT_ID, "client_secret": os.environ["ORDERLINE_CLIENT_SECRET"]})
    if status != 200:
        raise SystemExit(f"login refused: {response}")
    return json.load(response)["token"]
`;

function python(op: Operation): string {
  const path = placeholders(op.path).length
    ? `f"${op.path.replace(/\{([A-Z_]+)\}/g, "{os.environ['$1']}")}"`
    : JSON.stringify(op.path);
  const body = op.body === undefined ? "" : `, ${pythonLiteral(op.body)}`;
  let run: string;
  if (op.path === "/api/v1/auth/login") run = "print(login())";
  else if (op.path === "/api/v1/auth/refresh")
    run = `status, response = call("POST", "/api/v1/auth/refresh", {"token": login()})\nprint(status, json.load(response) if status < 400 else response)`;
  else if (!op.signed)
    run = `status, response = call("GET", ${path})\nprint(status, json.load(response) if status < 400 else response)`;
  else {
    const headers = op.idempotent ? ', headers={"Idempotency-Key": str(uuid.uuid4())}' : "";
    const call = `status, response = call("${op.method}", ${path}${body}, token=login()${headers})`;
    run = op.stream
      ? `${call}\nif status >= 400:\n    raise SystemExit(f"refused: {response}")\nfor line in response:  # server-sent events; print the first event and stop\n    if line.startswith(b"event:"):\n        print(line.decode().strip(), response.readline().decode().strip())\n        break`
      : `${call}\nraw = response.read() if status < 400 else None\nprint(status, json.loads(raw) if raw else response)`;
  }
  const exit =
    op.path === "/api/v1/auth/login" ? "" : "raise SystemExit(0 if status < 400 else 1)\n";
  return `# pip install cryptography. Needs ${needs(op)}.\n${PYTHON_HELPER}\n\n${run}\n${exit}`;
}

/** JSON as a Python literal (true/false/null spelled the Python way). */
function pythonLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\btrue\b/g, "True")
    .replace(/\bfalse\b/g, "False")
    .replace(/\bnull\b/g, "None");
}

const JAVA_HELPER = `    static final String BASE_URL = System.getenv("ORDERLINE_BASE_URL").replaceAll("/+$", "");
    static final String CLIENT_ID = System.getenv("ORDERLINE_CLIENT_ID");
    static final HttpClient HTTP = HttpClient.newHttpClient();

    /** One request; signed (version 2) when a token is given. */
    static <T> HttpResponse<T> call(String method, String target, String body, String token,
            HttpResponse.BodyHandler<T> handler, String... headers) throws Exception {
        byte[] data = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE_URL + target))
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(data))
            .header("Accept", "application/json");
        if (body != null) request.header("Content-Type", "application/json");
        if (headers.length > 0) request.headers(headers);
        if (token != null) {
            // Unix milliseconds (seconds work too): a new one for every request, retries included.
            String timestamp = Long.toString(Instant.now().toEpochMilli());
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
            String text = String.join("\\n", "v2", CLIENT_ID, timestamp, method, target, digest);
            Signature signer = Signature.getInstance("SHA256withRSA");
            signer.initSign(privateKey());
            signer.update(text.getBytes(StandardCharsets.UTF_8));
            request.header("Authorization", "Bearer " + token).header("X-CLIENT-ID", CLIENT_ID)
                .header("X-TIMESTAMP", timestamp).header("X-SIGNATURE-VERSION", "2")
                .header("X-SIGNATURE", Base64.getEncoder().encodeToString(signer.sign()));
        }
        return HTTP.send(request.build(), handler);
    }

    /** The PKCS#8 PEM key ("BEGIN PRIVATE KEY"; openssl pkcs8 -topk8 -nocrypt converts others). */
    static PrivateKey privateKey() throws Exception {
        String pem = Files.readString(Path.of(System.getenv("ORDERLINE_PRIVATE_KEY_FILE")));
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\\\s", "");
        return KeyFactory.getInstance("RSA")
            .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    static String login() throws Exception {
        String body = "{\\"client_id\\":\\"" + CLIENT_ID + "\\",\\"client_secret\\":\\""
            + System.getenv("ORDERLINE_CLIENT_SECRET") + "\\"}";
        HttpResponse<String> response = call("POST", "/api/v1/auth/login", body, null,
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) throw new IllegalStateException(response.body());
        Matcher token = Pattern.compile("\\"token\\"\\\\s*:\\\\s*\\"([^\\"]+)\\"").matcher(response.body());
        if (!token.find()) throw new IllegalStateException(response.body());
        return token.group(1);
    }
`;

function java(op: Operation): string {
  const path = placeholders(op.path).reduce(
    (text, name) => text.replace(`{${name}}`, `" + System.getenv("${name}") + "`),
    `"${op.path}"`,
  );
  const body = op.body === undefined ? "null" : `"""\n            ${JSON.stringify(op.body)}"""`;
  let run: string;
  const print = `        System.out.println(response.statusCode() + " " + response.body());
        System.exit(response.statusCode() < 400 ? 0 : 1);`;
  if (op.path === "/api/v1/auth/login") run = "        System.out.println(login());";
  else if (op.path === "/api/v1/auth/refresh")
    run = `        HttpResponse<String> response = call("POST", "/api/v1/auth/refresh",
            "{\\"token\\":\\"" + login() + "\\"}", null, HttpResponse.BodyHandlers.ofString());
${print}`;
  else if (!op.signed)
    run = `        HttpResponse<String> response = call("GET", ${path}, null, null,
            HttpResponse.BodyHandlers.ofString());
${print}`;
  else if (op.stream)
    run = `        HttpResponse<Stream<String>> response = call("GET", ${path}, null, login(),
            HttpResponse.BodyHandlers.ofLines(), "Accept", "text/event-stream");
        if (response.statusCode() >= 400) throw new IllegalStateException("refused: " + response.statusCode());
        // Server-sent events: print the first event and stop.
        Iterator<String> lines = response.body().iterator();
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("event:")) { System.out.println(line + " " + lines.next()); break; }
        }
        System.exit(0);`;
  else
    run = `        HttpResponse<String> response = call("${op.method}", ${path}, ${body}, login(),
            HttpResponse.BodyHandlers.ofString()${op.idempotent ? ', "Idempotency-Key", UUID.randomUUID().toString()' : ""});
${print}`;
  return `// Java 17+: java Sample.java. Needs ${needs(op)}.
import java.net.URI;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.*;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.*;
import java.util.regex.*;
import java.util.stream.Stream;

public class Sample {
${JAVA_HELPER}
    public static void main(String[] args) throws Exception {
${run}
    }
}
`;
}

/** Shell, Node, Python and Java for every partner operation, by operation id. */
export const PARTNER_CODE_SAMPLES: Record<string, CodeSample[]> = Object.fromEntries(
  Object.entries(OPERATIONS).map(([id, op]) => [
    id,
    [
      { lang: "Shell", label: "curl + openssl", source: shell(op) },
      { lang: "JavaScript", label: "Node (SDK)", source: node(op) },
      { lang: "Python", label: "Python", source: python(op) },
      { lang: "Java", label: "Java", source: java(op) },
    ],
  ]),
);
