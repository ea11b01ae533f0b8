"""The conformance runner for the Python SDK: see packages/partner-sdk/conformance/README.md."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Callable, Dict, List

from orderline_partner import (
    PartnerApiError,
    PartnerClient,
    PartnerNetworkError,
    WebhookSignatureError,
    verify_webhook,
)

Step = Dict[str, Any]


def client_for(settings: Dict[str, Any], step: Step) -> PartnerClient:
    merged = {**settings, **step.get("client", {})}
    with open(merged["private_key_file"], encoding="utf-8") as key:
        private_key = key.read()
    return PartnerClient(
        base_url=merged["base_url"],
        client_id=merged["client_id"],
        client_secret=merged["client_secret"],
        private_key=private_key,
        sign_login=merged.get("sign_login", True),
        retry_base_delay=0.02,
    )


def error_of(error: Exception) -> Dict[str, Any]:
    if isinstance(error, PartnerApiError):
        hints = error.problem.get("hints")
        text = error.problem.get("string_to_sign")
        return {
            "type": "api",
            "status": error.status,
            "code": error.code,
            "attempts": error.attempts,
            "hints": [h["code"] for h in hints] if isinstance(hints, list) else [],
            "string_to_sign_version": text.split("\n")[0] if isinstance(text, str) else None,
        }
    assert isinstance(error, PartnerNetworkError)
    return {"type": "network", "attempts": error.attempts, "message": str(error)}


def run(settings: Dict[str, Any], step: Step) -> Dict[str, Any]:
    op = step["op"]
    if op == "verify_webhook":
        try:
            event = verify_webhook(step["payload"], step["header"], secret=step["secret"])
            return {"ok": True, "event_id": event["id"]}
        except WebhookSignatureError as error:
            return {"ok": False, "reason": error.reason}
    client = client_for(settings, step)
    if op == "create_order":
        order = client.sales_orders.create(step["order"], idempotency_key=step.get("idempotency_key"))
        return {
            "ok": True,
            "order": {k: order[k] for k in ("id", "order_number", "purchase_order_no")},  # type: ignore[literal-required]
        }
    if op == "list_all":
        return {"ok": True, "ids": [o["id"] for o in client.sales_orders.iterate(page_size=step["page_size"])]}
    if op == "request_log_failed":
        for _ in range(100):
            refused = client.request_log.failed(limit=step["limit"])
            if any(r["code"] == step["until_code"] for r in refused):
                break
            time.sleep(0.1)
        return {
            "ok": True,
            "refused": [
                {"code": r["code"], "hints": [h["code"] for h in (r["expected"] or {}).get("hints", [])]}
                for r in refused
            ],
        }
    if op == "stream":
        events: List[Dict[str, str]] = []
        stream = client.events.stream(last_event_id=step["last_event_id"])
        for event in stream:
            events.append({"id": event["id"], "type": event["type"]})
            if len(events) == step["count"]:
                break
        stream.close()
        return {"ok": True, "events": events}
    raise ValueError(f"unknown op {op}")


def main() -> None:
    settings = json.load(sys.stdin)
    results: List[Dict[str, Any]] = []
    for step in settings["steps"]:
        try:
            results.append(run(settings, step))
        except (PartnerApiError, PartnerNetworkError) as error:
            results.append({"ok": False, "error": error_of(error)})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
