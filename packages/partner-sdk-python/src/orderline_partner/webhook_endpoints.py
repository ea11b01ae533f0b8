"""``client.webhook_endpoints`` (the partner's own endpoints) and ``client.request_log``."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional
from urllib.parse import quote

from ._signed_call import SignedCaller
from .types import (
    CreatedWebhookEndpoint,
    RefusedRequest,
    RotatedWebhookSecret,
    WebhookAttempt,
    WebhookEndpoint,
)

BASE = "/api/v1/webhook-endpoints"


def _segment(name: str, value: str) -> str:
    if not isinstance(value, str) or value == "":
        raise TypeError(f"{name} must be a non-empty string")
    return quote(value, safe="")


def _limit(limit: Optional[int]) -> str:
    if limit is None:
        return ""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100:
        raise TypeError("limit must be an integer from 1 to 100")
    return f"limit={limit}"


class WebhookEndpoints:
    def __init__(self, caller: SignedCaller) -> None:
        self._caller = caller

    def _data(self, method: str, target: str, body: Optional[Dict[str, Any]] = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        return self._caller.call(method, target, data).body["data"]

    def _path(self, endpoint_id: str) -> str:
        return f"{BASE}/{_segment('id', endpoint_id)}"

    def create(self, url: str, events: List[str]) -> CreatedWebhookEndpoint:
        """Registers an endpoint; its ``secret`` (``whsec_…``) is shown only this once."""
        created: CreatedWebhookEndpoint = self._data("POST", BASE, {"url": url, "events": events})
        return created

    def list(self) -> List[WebhookEndpoint]:
        endpoints: List[WebhookEndpoint] = self._data("GET", BASE)
        return endpoints

    def get(self, endpoint_id: str) -> WebhookEndpoint:
        endpoint: WebhookEndpoint = self._data("GET", self._path(endpoint_id))
        return endpoint

    def update(
        self,
        endpoint_id: str,
        url: Optional[str] = None,
        events: Optional[List[str]] = None,
        enabled: Optional[bool] = None,
    ) -> WebhookEndpoint:
        change = {
            k: v for k, v in {"url": url, "events": events, "enabled": enabled}.items() if v is not None
        }
        endpoint: WebhookEndpoint = self._data("PATCH", self._path(endpoint_id), change)
        return endpoint

    def delete(self, endpoint_id: str) -> None:
        """Removes the endpoint with its queued deliveries."""
        self._caller.call("DELETE", self._path(endpoint_id))

    def rotate_secret(self, endpoint_id: str) -> RotatedWebhookSecret:
        """A new secret, shown once; the old one keeps signing beside it for the grace period."""
        rotated: RotatedWebhookSecret = self._data("POST", self._path(endpoint_id) + "/secret")
        return rotated

    def deliveries(self, endpoint_id: str, limit: Optional[int] = None) -> List[WebhookAttempt]:
        """The endpoint's delivery attempts, newest first (limit 1–100, default 20)."""
        query = _limit(limit)
        target = self._path(endpoint_id) + "/deliveries" + (f"?{query}" if query else "")
        attempts: List[WebhookAttempt] = self._data("GET", target)
        return attempts

    def resend(self, endpoint_id: str, event_id: str) -> None:
        """Delivers the event (``evt_…``) to the endpoint again, now."""
        event = _segment("event_id", event_id)
        self._caller.call("POST", f"{self._path(endpoint_id)}/deliveries/{event}/resend")

    def test(self, endpoint_id: str) -> str:
        """Fires a ``webhook.test`` event at the endpoint; its event id once queued."""
        queued: Dict[str, str] = self._data("POST", self._path(endpoint_id) + "/test")
        return queued["event_id"]


class RequestLog:
    def __init__(self, caller: SignedCaller) -> None:
        self._caller = caller

    def failed(self, limit: Optional[int] = None) -> List[RefusedRequest]:
        """Refused requests of the last 7 days, newest first (limit 1–100, default 50), each with
        what the gateway expected (string-to-sign and hints for a signature failure)."""
        query = _limit(limit)
        target = "/api/v1/request-log?outcome=failed" + (f"&{query}" if query else "")
        refused: List[RefusedRequest] = self._caller.call("GET", target).body["data"]
        return refused
