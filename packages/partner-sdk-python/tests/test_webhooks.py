"""Webhook signatures, without a gateway: the same header the gateway sends verifies."""

from __future__ import annotations

import json
import time

import pytest

from orderline_partner import WebhookSignatureError, sign_webhook, verify_webhook

BODY = json.dumps({"id": "evt_1", "type": "order.created", "created_at": "2026-01-01T00:00:00Z", "data": {}})


def reason(**options: object) -> str:
    with pytest.raises(WebhookSignatureError) as raised:
        verify_webhook(**options)  # type: ignore[arg-type]
    return raised.value.reason


def test_a_signed_delivery_verifies_and_returns_its_event() -> None:
    header = sign_webhook(BODY, secret="whsec_a")
    assert verify_webhook(BODY, header, secret="whsec_a")["id"] == "evt_1"
    assert verify_webhook(BODY.encode(), header, secrets=["whsec_b", "whsec_a"])["id"] == "evt_1"


def test_refusals_say_why() -> None:
    header = sign_webhook(BODY, secret="whsec_a")
    assert reason(payload=BODY, header=header, secret="whsec_wrong") == "no_matching_signature"
    assert reason(payload=BODY + " ", header=header, secret="whsec_a") == "no_matching_signature"
    assert reason(payload=BODY, header=None, secret="whsec_a") == "header_missing"
    for junk in ["t=abc,v1=00", "garbage", "t=1", "v1=" + "0" * 64, "t=1,t=2,v1=" + "0" * 64]:
        assert reason(payload=BODY, header=junk, secret="whsec_a") == "header_malformed"
    old = sign_webhook(BODY, secret="whsec_a", timestamp=int(time.time()) - 600)
    assert reason(payload=BODY, header=old, secret="whsec_a") == "timestamp_outside_tolerance"
    assert verify_webhook(BODY, old, secret="whsec_a", tolerance_seconds=900)["id"] == "evt_1"
    not_json = sign_webhook("nope", secret="whsec_a")
    assert reason(payload="nope", header=not_json, secret="whsec_a") == "payload_not_json"


def test_parsed_json_is_refused_as_a_payload() -> None:
    with pytest.raises(TypeError):
        verify_webhook(json.loads(BODY), sign_webhook(BODY, secret="whsec_a"), secret="whsec_a")  # type: ignore[arg-type]


def test_a_rotation_header_carries_one_signature_per_secret() -> None:
    header = sign_webhook(BODY, secrets=["whsec_new", "whsec_old"], timestamp=1767225600)
    assert header.startswith("t=1767225600,v1=") and header.count("v1=") == 2
