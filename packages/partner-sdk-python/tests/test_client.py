"""The client against a real gateway, through a fault proxy the tests steer."""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Dict, List

import pytest

from orderline_partner import PartnerApiError, PartnerClient, PartnerNetworkError

from conftest import Harness, Proxy, order

ClientFor = Callable[..., PartnerClient]


def test_logs_in_then_creates_gets_lists_with_signed_requests(proxy: Proxy, client_for: ClientFor, partner: Dict[str, str]) -> None:
    client = client_for(proxy.url)
    created = client.sales_orders.create(order("PO-1"))
    assert created["order_number"].startswith("SO-")
    assert created["purchase_order_no"] == "PO-1"
    assert created["version"] == 1
    assert client.sales_orders.get(created["id"])["history"][0]["to"] == "received"
    page = client.sales_orders.list(limit=10)
    assert [o["id"] for o in page["data"]] == [created["id"]]
    assert page["next_cursor"] is None
    for attempt in proxy.attempts():
        headers = attempt["headers"]
        assert headers["x-client-id"] == partner["client_id"]
        # Millisecond timestamps on the server's clock, version 2 by default.
        assert len(headers["x-timestamp"]) == 13
        assert abs(int(headers["x-timestamp"]) / 1000 - time.time()) < 60
        assert headers["x-signature-version"] == "2"
    login = proxy.attempts("/api/v1/auth/login")
    assert len(login) == 1 and login[0]["headers"]["x-signature"]


def test_iterates_every_page_newest_first(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    ids = [client.sales_orders.create(order(f"IT-{i}"))["id"] for i in range(5)]
    assert [o["id"] for o in client.sales_orders.iterate(page_size=2)] == list(reversed(ids))
    assert len([a for a in proxy.attempts() if a["method"] == "GET"]) == 3
    only = list(client.sales_orders.iterate(purchase_order_no="IT-3"))
    assert [o["id"] for o in only] == [ids[3]]
    assert list(client.sales_orders.iterate(status="cancelled")) == []


def test_validation_errors_name_every_field_without_a_retry(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    with pytest.raises(PartnerApiError) as raised:
        client.sales_orders.create(order("BAD", products=[], customer_code=" "))
    error = raised.value
    assert error.status == 400 and error.code == "validation_failed"
    pointers = {f["pointer"] for f in error.field_errors}
    assert {"/products", "/customer_code"} <= pointers
    assert all(f["message"] for f in error.field_errors)
    assert "/products" in str(error) and "/customer_code" in str(error)
    assert error.request_id and error.request_id == error.problem.get("request_id")
    assert error.attempts == 1 and len(proxy.attempts()) == 1
    with pytest.raises(PartnerApiError) as missing:
        client.sales_orders.get("no-such-order")
    assert missing.value.code == "order_not_found"


def test_wrong_secret_is_invalid_client_and_never_in_the_error(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url, client_secret="wrong-secret-value")
    with pytest.raises(PartnerApiError) as raised:
        client.sales_orders.list()
    assert raised.value.code == "invalid_client"
    assert "wrong-secret-value" not in repr(raised.value.__dict__) + str(raised.value)


def test_a_lost_answer_is_retried_with_the_same_idempotency_key_signed_afresh(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    proxy.faults({"kind": "forward-then-respond", "status": 503})
    created = client.sales_orders.create(order("RETRY-1"), idempotency_key="key-retry-1")
    posts = [a for a in proxy.attempts() if a["method"] == "POST"]
    assert len(posts) == 2
    assert {p["headers"]["idempotency-key"] for p in posts} == {"key-retry-1"}
    assert posts[0]["headers"]["x-timestamp"] != posts[1]["headers"]["x-timestamp"]
    assert posts[0]["headers"]["x-signature"] != posts[1]["headers"]["x-signature"]
    found = list(client.sales_orders.iterate(purchase_order_no="RETRY-1"))
    assert [o["id"] for o in found] == [created["id"]]


def test_429_waits_as_retry_after_says_and_a_long_one_goes_to_the_caller(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    limited = {"kind": "respond", "status": 429, "headers": {"retry-after": "1"}, "body": {"code": "rate_limited"}}
    proxy.faults(limited)
    client.sales_orders.list()
    first, second = proxy.attempts()
    assert second["at"] - first["at"] >= 900  # waited for Retry-After, not the 5 ms backoff
    proxy.faults({**limited, "headers": {"retry-after": "3600"}})
    with pytest.raises(PartnerApiError) as raised:
        client.sales_orders.list()
    assert raised.value.code == "rate_limited" and raised.value.attempts == 1


def test_network_failures_are_retried_then_raised(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url, max_retries=2)
    client.login()
    proxy.faults({"kind": "destroy"})
    assert client.sales_orders.list()["data"] == []
    proxy.faults({"kind": "destroy"}, {"kind": "destroy"}, {"kind": "destroy"})
    with pytest.raises(PartnerNetworkError) as raised:
        client.sales_orders.list()
    assert raised.value.attempts == 3


def test_a_clock_far_off_is_corrected_from_the_gateway(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url, now=lambda: time.time() - 3600)
    created = client.sales_orders.create(order("SKEW-1"))
    assert created["order_number"].startswith("SO-")


def test_version_1_switches_to_2_when_the_partner_requires_it(harness: Harness, proxy: Proxy) -> None:
    strict = harness.partner(signature_version=2)
    client = PartnerClient(
        base_url=proxy.url,
        client_id=strict["client_id"],
        client_secret=strict["client_secret"],
        private_key=strict["private_key_pem"],
        signature_version=1,
    )
    client.sales_orders.create(order("V2-1"))
    assert client.signature_version == 2


def test_cancel_and_the_conflict_after_it(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    created = client.sales_orders.create(order("CAN-1"))
    cancelled = client.sales_orders.cancel(created["id"], reason="sent twice by mistake")
    assert cancelled["status"] == "cancelled" and cancelled["version"] == 2
    assert cancelled["history"][-1]["reason"] == "sent twice by mistake"
    with pytest.raises(PartnerApiError) as raised:
        client.sales_orders.cancel(created["id"], reason="again")
    assert raised.value.code == "order_transition_invalid"
    assert raised.value.problem["current_status"] == "cancelled"


def test_a_cancel_whose_answer_was_lost_returns_the_cancelled_order(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    created = client.sales_orders.create(order("CAN-2"))
    proxy.faults({"kind": "forward-then-respond", "status": 503})
    cancelled = client.sales_orders.cancel(created["id"], reason="customer withdrew")
    assert cancelled["status"] == "cancelled"


def test_webhook_endpoints_self_service(proxy: Proxy, client_for: ClientFor) -> None:
    client = client_for(proxy.url)
    endpoint = client.webhook_endpoints.create(url="https://erp.example.com/hooks", events=["order.created"])
    assert endpoint["id"].startswith("we_") and endpoint["secret"].startswith("whsec_")
    assert [e["id"] for e in client.webhook_endpoints.list()] == [endpoint["id"]]
    assert "secret" not in client.webhook_endpoints.get(endpoint["id"])
    updated = client.webhook_endpoints.update(endpoint["id"], events=["*"], enabled=False)
    assert updated["events"] == ["*"] and updated["enabled"] is False
    rotated = client.webhook_endpoints.rotate_secret(endpoint["id"])
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != endpoint["secret"]
    assert client.webhook_endpoints.deliveries(endpoint["id"], limit=5) == []
    client.webhook_endpoints.delete(endpoint["id"])
    with pytest.raises(PartnerApiError) as raised:
        client.webhook_endpoints.get(endpoint["id"])
    assert raised.value.code == "webhook_endpoint_not_found"
    with pytest.raises(TypeError):
        client.webhook_endpoints.deliveries("we_x", limit=0)


def test_the_request_log_explains_a_signature_failure(proxy: Proxy, client_for: ClientFor) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    other = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    wrong = client_for(proxy.url, private_key=other, sign_login=False)
    with pytest.raises(PartnerApiError) as raised:
        wrong.sales_orders.list()
    assert raised.value.code == "signature_invalid"
    assert [h["code"] for h in raised.value.problem["hints"]] == ["signature_length"]
    assert other.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    # The gateway writes its request log within a quarter of a second: read until it is there.
    right = client_for(proxy.url)
    found = []
    for _ in range(100):
        found = [r for r in right.request_log.failed(limit=5) if r["code"] == "signature_invalid"]
        if found:
            break
        time.sleep(0.1)
    assert found, "no signature_invalid in the request log"
    expected = found[0]["expected"] or {}
    assert expected["string_to_sign"].startswith("v2\n")
    assert [h["code"] for h in expected["hints"]] == ["signature_length"]


def test_the_event_stream_resumes_after_the_last_event_id(harness: Harness, client_for: ClientFor) -> None:
    # Straight to the gateway: the fault proxy answers only once the gateway's answer is complete.
    client = client_for(harness.gateway_url)
    stop = threading.Event()
    seen: List[Dict[str, Any]] = []

    def read() -> None:
        for event in client.events.stream(events=["order.created"], stop=stop):
            seen.append(dict(event))
            if len(seen) == 2:
                stop.set()

    # The stream starts from now: read in the background, then create the orders.
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # Orders created until the stream reports them: it may open after the first creates.
    ids: List[str] = []
    while reader.is_alive() and len(ids) < 50:
        ids.append(client.sales_orders.create(order(f"EV-{len(ids)}"))["id"])
        time.sleep(0.2)
    reader.join(timeout=60)
    assert not reader.is_alive()
    assert [e["type"] for e in seen] == ["order.created", "order.created"]

    streamed = [json.loads(e["data"])["data"]["order"]["id"] for e in seen]
    assert streamed == ids[ids.index(streamed[0]) :][:2]
    resumed = client.events.stream(last_event_id=seen[0]["id"])
    again = next(resumed)
    resumed.close()
    assert again["id"] == seen[1]["id"]
