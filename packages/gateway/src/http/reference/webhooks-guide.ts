/**
 * The partner's webhooks guide (/docs/webhooks, Markdown, the document's \`info.description\`):
 * events, what arrives, answers and retries, and verification in Node, Python, Java and shell.
 * Every program here runs in test/docs-webhooks.test.ts against a real delivery.
 */
export const WEBHOOKS_GUIDE = `Your system can be told when one of your orders is created or changes status, instead of
polling. The gateway POSTs a signed JSON **event** to each of your **webhook endpoints**: an
\`https\` URL of yours, the event types it receives (or all, \`["*"]\`) and a **signing secret**
(\`whsec_…\`, shown once; keep it in your secret manager). You register your endpoints yourself
with signed requests to \`/api/v1/webhook-endpoints\` (see **Webhook endpoints** in
[the API reference](/docs)), or your tenant's admins do it for you; \`POST
/api/v1/webhook-endpoints/{id}/test\` fires a \`webhook.test\` event at one now. This page has everything a receiver needs; the payload of each event type,
as a JSON Schema, is listed below and under \`webhooks\` in [the OpenAPI document](/openapi/partner.json).

# Events

| type              | when                                                        |
| ----------------- | ----------------------------------------------------------- |
| \`order.created\`   | one of your orders was stored (\`received\`)                  |
| \`order.accepted\`  | the tenant accepted it                                      |
| \`order.rejected\`  | the tenant rejected it (\`data.change.reason\` says why)      |
| \`order.fulfilled\` | the tenant fulfilled (shipped) it                           |
| \`order.cancelled\` | you or the tenant cancelled it (\`data.change.reason\`)       |
| \`webhook.test\`    | you fired it at one endpoint (\`POST …/{id}/test\`); no order  |

An endpoint receives the types it subscribes to, for events that happen after it was
registered; a test event goes to the endpoint it was fired at, whatever it subscribes to.

# What arrives

A \`POST\` to your URL with \`Content-Type: application/json\` (UTF-8) and these headers:

| Header                 | Value                                                                  |
| ---------------------- | ---------------------------------------------------------------------- |
| \`Orderline-Signature\`  | \`t=<Unix seconds>,v1=<hex>\`: verify it before trusting the body (below) |
| \`Orderline-Event-Id\`   | the event's \`id\` (\`evt_…\`), the same on every retry and resend         |
| \`Orderline-Event-Type\` | the event's \`type\`                                                     |
| \`User-Agent\`           | \`Orderline-Webhooks/1\`                                                 |

The body:

\`\`\`json
{
  "id": "evt_01943f2c-8e1a-7c3d-9b2e-5f60718293a4",
  "type": "order.accepted",
  "created_at": "2026-01-15T09:20:00.000Z",
  "data": {
    "order": { "id": "01943f2a-…", "order_number": "SO-00000042", "status": "accepted", "version": 2, "history": ["…"] },
    "change": { "from": "received", "to": "accepted", "reason": null, "by": "tenant_user" }
  }
}
\`\`\`

- \`data.order\` is the order exactly as \`GET /api/v1/sales-orders/{id}\` showed it **right after
  the event** (its status, \`version\`, \`updated_at\` and \`history\` up to that change), not as it
  is when the delivery arrives. Read the order for its current state.
- \`data.change\` (absent from \`order.created\`): the \`from\` and \`to\` status, the \`reason\` given,
  and \`by\`: \`partner\` (you) or \`tenant_user\`.
- Every field of each type is in its schema under **Webhooks** in this page's menu.

# Answer, retries, order

- Answer any **2xx** within **10 seconds**; do the work afterwards. Anything else (another
  status, a timeout, a refused connection, a redirect, which is never followed) is a failed
  attempt.
- A failed attempt is retried with exponential backoff and jitter (about 30 s, 1 min, 2 min …
  up to one hour apart) for **3 days**. A \`webhook.test\` event is the exception: it is
  attempted **once**, never retried, and its outcome is listed with the deliveries; test events
  are limited to 100 per minute per partner and 20 per endpoint (\`429\` with \`Retry-After\`).
  You (\`GET …/{id}/deliveries\`, \`POST …/deliveries/{event_id}/resend\`) and your tenant's
  admins see every attempt and can resend an event.
- Delivery is **at least once**: de-duplicate on \`Orderline-Event-Id\` (= \`id\`); every delivery
  of one event carries the same body.
- Events of one order can arrive out of order (a retried \`order.created\` after
  \`order.accepted\`): compare \`data.order.version\`, which grows by one with every change.
- An endpoint that has failed for 3 days without one success is **disabled** until it is
  enabled again (by you or an admin); events still within their 3 days are then delivered.

# Verifying a delivery

\`Orderline-Signature\` is \`t=<Unix seconds>,v1=<hex>\`: HMAC-SHA256 keyed with your endpoint's
secret (the whole \`whsec_…\` string as UTF-8 bytes) over \`<t>.<raw body>\`. While a secret is
being rotated the header carries one \`v1=\` per secret (the new one and, for 24 hours, the old
one): accept the delivery when **any** \`v1\` matches.

1. Take the raw body bytes **exactly as received**, before any JSON parsing.
2. Split the header on \`,\`; take \`t\` and every \`v1\`.
3. Compute \`hex(HMAC-SHA256(secret, t + "." + raw body))\`.
4. Compare it with each \`v1\` in **constant time**.
5. Refuse when \`t\` is more than 300 seconds from now (a replay), then handle the event if its
   id is new to you.

Each program below takes the body file and the header, reads the secret from
\`ORDERLINE_WEBHOOK_SECRET\`, prints \`verified\` (exit 0) or \`refused\` (exit 1); in a receiver,
call its \`verify\` function on the request's raw body and answer \`400\` when it is false.

## Node.js (18+, no dependencies)

\`\`\`js
// verify.mjs: node verify.mjs body.json "t=…,v1=…"
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";

export function verify(header, rawBody, secret, toleranceSeconds = 300) {
  const parts = header.split(",").map((p) => p.split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\`).update(rawBody).digest();
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => {
      const given = Buffer.from(v ?? "", "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const [file, header] = process.argv.slice(2);
const ok = verify(header, readFileSync(file), process.env.ORDERLINE_WEBHOOK_SECRET);
console.log(ok ? "verified" : "refused");
process.exit(ok ? 0 : 1);
\`\`\`

With the Node SDK (\`npm install @orderline/partner-sdk\`), \`verifyWebhook({ payload, header,
secret })\` does the same on the raw body and returns the event, or throws
\`WebhookSignatureError\` with a \`reason\`.

## Python (3.8+, standard library)

\`\`\`python
# verify.py: python3 verify.py body.json "t=…,v1=…"
import hashlib, hmac, os, sys, time

def verify(header: str, raw_body: bytes, secret: str, tolerance: int = 300) -> bool:
    parts = [p.partition("=")[::2] for p in header.split(",")]
    t = next((v for k, v in parts if k == "t"), "")
    # isdigit() alone lets "²" through to int(); a header is anything a sender chose.
    if not (t.isascii() and t.isdigit()) or abs(time.time() - int(t)) > tolerance:
        return False
    message = t.encode() + b"." + raw_body
    expected = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    # compare_digest raises on non-ASCII text: such a value is simply not a signature.
    return any(v.isascii() and hmac.compare_digest(expected, v) for k, v in parts if k == "v1")

with open(sys.argv[1], "rb") as body:
    ok = verify(sys.argv[2], body.read(), os.environ["ORDERLINE_WEBHOOK_SECRET"])
print("verified" if ok else "refused")
sys.exit(0 if ok else 1)
\`\`\`

## Java (17+, JDK only)

\`\`\`java
// Verify.java: java Verify.java body.json "t=…,v1=…"
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Verify {
  static boolean verify(String header, byte[] rawBody, String secret, long tolerance) throws Exception {
    String t = null;
    java.util.List<String> signatures = new java.util.ArrayList<>();
    for (String part : header.split(",")) {
      String[] kv = part.split("=", 2);
      if (kv.length != 2) continue;
      if (kv[0].equals("t")) t = kv[1];
      if (kv[0].equals("v1")) signatures.add(kv[1]);
    }
    if (t == null || !t.matches("[0-9]{1,12}")) return false;
    if (Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t)) > tolerance) return false;
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
    byte[] expected = mac.doFinal(rawBody);
    for (String v : signatures) {
      if (!v.matches("[0-9a-f]{64}")) continue;
      if (MessageDigest.isEqual(expected, HexFormat.of().parseHex(v))) return true;
    }
    return false;
  }

  public static void main(String[] args) throws Exception {
    byte[] body = Files.readAllBytes(Path.of(args[0]));
    boolean ok = verify(args[1], body, System.getenv("ORDERLINE_WEBHOOK_SECRET"), 300);
    System.out.println(ok ? "verified" : "refused");
    System.exit(ok ? 0 : 1);
  }
}
\`\`\`

## Shell (curl + openssl)

To check a logged delivery by hand (a shell's \`=\` is not a constant-time comparison: in a
receiver, use one of the above):

\`\`\`sh
# verify.sh: sh verify.sh body.json "t=…,v1=…"
body=$1; header=$2
t=$(printf '%s' "$header" | tr ',' '\\n' | sed -n 's/^t=//p' | head -n 1)
case $t in '' | *[!0-9]*) echo refused; exit 1 ;; esac
age=$(( $(date +%s) - t ))
if [ "$age" -gt 300 ] || [ "$age" -lt -300 ]; then echo refused; exit 1; fi
expected=$({ printf '%s.' "$t"; cat "$body"; } \\
  | openssl dgst -sha256 -hmac "$ORDERLINE_WEBHOOK_SECRET" -r | cut -d ' ' -f 1)
for v in $(printf '%s' "$header" | tr ',' '\\n' | sed -n 's/^v1=//p'); do
  if [ "$v" = "$expected" ]; then echo verified; exit 0; fi
done
echo refused; exit 1
\`\`\`

To test your receiver before any real delivery, sign a body the way the gateway does and send
it (\`npx orderline-partner webhooks sign --file body.json\` prints the same header):

\`\`\`sh
t=$(date +%s)
v1=$({ printf '%s.' "$t"; cat body.json; } | openssl dgst -sha256 -hmac "$ORDERLINE_WEBHOOK_SECRET" -r | cut -d ' ' -f 1)
curl -sS -X POST https://erp.example.com/orderline/webhooks \\
  -H 'Content-Type: application/json' -H "Orderline-Signature: t=$t,v1=$v1" --data-binary @body.json
\`\`\`

# More

[The partner API reference](/docs) (login, signing, orders, errors) · [the in-page
signer](/docs/signer) · [the OpenAPI document](/openapi/partner.json).
`;
