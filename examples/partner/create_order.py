"""Logs in and creates one sales order signed with signature version 2, with Python 3 alone.

The standard library has no RSA, and the `cryptography` package is not assumed: the signature is
made by the `openssl` command (with `cryptography` installed, `private_key.sign(data,
padding.PKCS1v15(), hashes.SHA256())` does the same). Run with the four ORDERLINE_* variables set:
    python3 create_order.py
"""

import base64
import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid


def env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"set {name}")
    return value


BASE_URL = env("ORDERLINE_BASE_URL")
CLIENT_ID = env("ORDERLINE_CLIENT_ID")
CLIENT_SECRET = env("ORDERLINE_CLIENT_SECRET")
KEY_FILE = env("ORDERLINE_PRIVATE_KEY_FILE")


def call(method, target, body, headers):
    request = urllib.request.Request(BASE_URL + target, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:  # problem+json: code, detail, request_id
        return error.code, json.loads(error.read())


def sign(text):
    """base64(SHA256withRSA(private key, text)), by openssl."""
    raw = subprocess.run(
        ["openssl", "dgst", "-sha256", "-sign", KEY_FILE],
        input=text.encode("utf-8"), capture_output=True, check=True,
    ).stdout
    return base64.b64encode(raw).decode("ascii")


# 1. Log in: client credentials for a 12-hour token. The login is signed like an order
#    (client_id|timestamp): it proves the key, so failed logins of someone guessing the secret
#    elsewhere never throttle it.
credentials = json.dumps({"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}).encode()
login_timestamp = str(int(time.time()))
status, session = call("POST", "/api/v1/auth/login", credentials, {
    "Content-Type": "application/json",
    "X-CLIENT-ID": CLIENT_ID,
    "X-TIMESTAMP": login_timestamp,
    "X-SIGNATURE": sign(CLIENT_ID + "|" + login_timestamp),
})
if status != 200:
    sys.exit(f"login failed: {session.get('code')}: {session.get('detail')}")

# 2. The exact bytes to send; the signature covers their SHA-256.
body = json.dumps({
    "customer_code": "CUST-001",
    "site_code": "SITE-01",
    "sales_name": "Dana Sales",
    "address": "1 Harbour Road, Springfield",
    "purchase_order_no": None,
    "products": [{"product_code": "SKU-1001", "quantity": 2, "uom": "EA", "unit_price": 9.5}],
}).encode("utf-8")
method, target = "POST", "/api/v1/sales-orders"
timestamp = str(int(time.time()))
digest = hashlib.sha256(body).hexdigest()

# 3. Version 2 string-to-sign: six lines joined by "\n", no trailing newline.
string_to_sign = "\n".join(["v2", CLIENT_ID, timestamp, method, target, digest])

# 4. Send it, with an Idempotency-Key so that a retry after a lost answer cannot create twice.
status, answer = call(method, target, body, {
    "Content-Type": "application/json",
    "Authorization": "Bearer " + session["token"],
    "X-CLIENT-ID": CLIENT_ID,
    "X-TIMESTAMP": timestamp,
    "X-SIGNATURE-VERSION": "2",
    "X-SIGNATURE": sign(string_to_sign),
    "Idempotency-Key": str(uuid.uuid4()),
})
print(json.dumps(answer, indent=2))
print(f"HTTP {status}")
sys.exit(0 if status == 201 else 1)
