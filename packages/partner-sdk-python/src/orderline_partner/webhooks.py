"""Webhook signatures: ``verify_webhook`` for a receiver, ``sign_webhook`` to test one."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import time
from datetime import datetime
from typing import List, Optional, Sequence, Union

from .errors import WebhookSignatureError
from .types import WebhookEvent

#: The header that carries a delivery's timestamp and signatures.
SIGNATURE_HEADER = "Orderline-Signature"
DEFAULT_TOLERANCE_SECONDS = 300

_HEX_SHA256 = re.compile(r"[0-9a-fA-F]{64}")
_SECONDS = re.compile(r"\d{1,12}")


def _payload_bytes(payload: Union[str, bytes, bytearray, memoryview]) -> bytes:
    if isinstance(payload, str):
        return payload.encode("utf-8")
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return bytes(payload)
    raise TypeError(
        "payload must be the raw body as received (str or bytes), not parsed JSON: "
        "re-serialising changes the bytes the signature covers"
    )


def _secrets(secret: Optional[str], secrets: Optional[Sequence[str]]) -> List[str]:
    found = ([] if secret is None else [secret]) + list(secrets or [])
    if not found or any(not isinstance(s, str) or s == "" for s in found):
        raise TypeError("give the endpoint's secret (secret) or secrets during a rotation (secrets)")
    return found


def _v1(secret: str, timestamp: str, payload: bytes) -> bytes:
    """HMAC-SHA256 keyed by the secret's UTF-8 bytes (``whsec_`` included) over ``<t>.<body>``."""
    return hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + payload, hashlib.sha256).digest()


def _malformed(detail: str) -> WebhookSignatureError:
    return WebhookSignatureError("header_malformed", f"Orderline-Signature is malformed: {detail}")


def _parse_header(header: Optional[str]) -> "tuple[str, List[bytes]]":
    """``t=<digits>,v1=<hex>[,v1=<hex>…]``; entries of other schemes are skipped."""
    if header is None or header.strip() == "":
        raise WebhookSignatureError("header_missing", "The Orderline-Signature header is missing.")
    timestamp: Optional[str] = None
    signatures: List[bytes] = []
    for entry in header.split(","):
        key, sep, value = entry.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key == "":
            raise _malformed(f"'{entry.strip()[:40]}' is not key=value")
        if key == "t":
            if timestamp is not None:
                raise _malformed("more than one t=")
            if not _SECONDS.fullmatch(value):
                raise _malformed("t= must be Unix seconds")
            timestamp = value
        elif key == "v1":
            if not _HEX_SHA256.fullmatch(value):
                raise _malformed("v1= must be 64 hexadecimal digits")
            signatures.append(bytes.fromhex(value))
    if timestamp is None:
        raise _malformed("no t= timestamp")
    if not signatures:
        raise _malformed("no v1= signature")
    return timestamp, signatures


def verify_webhook(
    payload: Union[str, bytes],
    header: Optional[str],
    secret: Optional[str] = None,
    secrets: Optional[Sequence[str]] = None,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[Union[float, datetime]] = None,
) -> WebhookEvent:
    """Checks a delivery and returns its event: a ``v1`` signature one of the secrets makes over
    ``<t>.<raw body>`` (compared in constant time), ``t`` within ``tolerance_seconds`` of now
    (``now``: Unix seconds or a datetime). Anything else raises WebhookSignatureError."""
    if isinstance(tolerance_seconds, bool) or not isinstance(tolerance_seconds, (int, float)) or not tolerance_seconds >= 0:
        raise TypeError("tolerance_seconds must be a number of seconds, 0 or more")
    keys = _secrets(secret, secrets)
    body = _payload_bytes(payload)
    timestamp, signatures = _parse_header(header)
    # Every secret against every signature: a rotation sends one v1 per active secret.
    matched = any(
        hmac.compare_digest(candidate, _v1(key, timestamp, body)) for key in keys for candidate in signatures
    )
    if not matched:
        raise WebhookSignatureError(
            "no_matching_signature",
            "No v1 signature matches the body with the given secret(s): a forged or altered "
            "delivery, the wrong secret, or a body changed before verification.",
        )
    # Checked after the signature, so only an authentic delivery is reported as old.
    now_seconds = (
        time.time() if now is None else now.timestamp() if isinstance(now, datetime) else float(now)
    )
    age = abs(now_seconds - int(timestamp))
    if age > tolerance_seconds:
        raise WebhookSignatureError(
            "timestamp_outside_tolerance",
            f"The delivery's timestamp (t={timestamp}) is {round(age)} s from now, beyond the "
            f"{tolerance_seconds} s tolerance: a replay, or a clock that is off.",
        )
    try:
        event: WebhookEvent = json.loads(body.decode("utf-8"))
    except ValueError:
        raise WebhookSignatureError("payload_not_json", "The signature matches but the body is not JSON.") from None
    return event


def sign_webhook(
    payload: Union[str, bytes],
    secret: Optional[str] = None,
    secrets: Optional[Sequence[str]] = None,
    timestamp: Optional[int] = None,
) -> str:
    """An ``Orderline-Signature`` value signed as the gateway signs deliveries, for testing a
    receiver: ``t=<unix seconds>,v1=<hex>[,v1=<hex>…]``."""
    t = math.floor(time.time()) if timestamp is None else timestamp
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise TypeError("timestamp must be whole Unix seconds")
    body = _payload_bytes(payload)
    entries = [f"v1={_v1(key, str(t), body).hex()}" for key in _secrets(secret, secrets)]
    return ",".join([f"t={t}", *entries])
