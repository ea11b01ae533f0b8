"""Verifies one Orderline webhook delivery with the Python 3 standard library (hmac, hashlib).

    ORDERLINE_WEBHOOK_SECRET=whsec_... python3 verify_webhook.py body.json 't=...,v1=...'

In a web handler, call verify(raw_body_bytes, request.headers["Orderline-Signature"], secret)
before parsing the JSON (Flask: request.get_data(); Django: request.body).
"""
import hashlib
import hmac
import json
import os
import re
import sys
import time

TOLERANCE_SECONDS = int(os.environ.get("ORDERLINE_WEBHOOK_TOLERANCE", "300"))


def verify(body: bytes, header: str, secret: str, now: float = None) -> dict:
    """Returns the event, or raises ValueError whose message is the reason."""
    # 1. Parse "t=<unix seconds>,v1=<hex>[,v1=<hex>...]"; entries of other schemes are skipped.
    t, signatures = None, []
    for part in (header or "").split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            t = value
        elif key == "v1" and re.fullmatch(r"[0-9a-fA-F]{64}", value):
            signatures.append(value.lower())
    if t is None or not signatures:
        raise ValueError("header missing or malformed")
    # 2. HMAC-SHA256 keyed by the secret string over b"<t>." + the raw body, as received.
    expected = hmac.new(secret.encode("utf-8"), t.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    # 3. Constant-time comparison; any v1 may match (two are sent during a secret rotation).
    if not any(hmac.compare_digest(expected, s) for s in signatures):
        raise ValueError("no matching signature")
    # 4. Refuse replays: the timestamp must be within the tolerance of now, either way.
    if abs((time.time() if now is None else now) - int(t)) > TOLERANCE_SECONDS:
        raise ValueError("timestamp outside the tolerance")
    return json.loads(body.decode("utf-8"))


def main() -> int:
    secret = os.environ.get("ORDERLINE_WEBHOOK_SECRET")
    if not secret or len(sys.argv) != 3:
        print("usage: ORDERLINE_WEBHOOK_SECRET=... python3 verify_webhook.py BODY_FILE HEADER", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    try:
        event = verify(body, sys.argv[2], secret)
    except ValueError as error:
        print(f"rejected: {error}")
        return 1
    print(f"verified {event['id']} {event['type']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
