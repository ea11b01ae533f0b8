"""``client.sales_orders``: create, get, list, iterate over every page, cancel."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from typing import Any, Dict, Iterator, Optional, Union
from urllib.parse import quote, urlencode

from ._signed_call import SignedCaller
from .errors import PartnerApiError
from .types import OrderStatus, SalesOrder, SalesOrderDetail, SalesOrderInput, SalesOrderPage

Instant = Union[datetime, str]


def _instant(name: str, value: Optional[Instant]) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if value.tzinfo is None:
        raise TypeError(f"{name} must be timezone-aware (or RFC 3339 text with Z or an offset)")
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def _order_path(order_id: str) -> str:
    if not isinstance(order_id, str) or order_id == "":
        raise TypeError("id must be a non-empty string")
    return "/api/v1/sales-orders/" + quote(order_id, safe="")


def is_own_cancellation(order: SalesOrderDetail, reason: str) -> bool:
    """Whether the order's last change is a partner's cancellation with ``reason``: after a
    retried cancel answers 409 ``cancelled``, this tells "our first attempt went through, its
    answer was lost" from "someone else cancelled it first"."""
    history = order["history"]
    last = history[-1] if history else None
    return (
        order["status"] == "cancelled"
        and last is not None
        and last["to"] == "cancelled"
        and last["actor"]["type"] == "partner"
        and last["reason"] == reason
    )


class SalesOrders:
    def __init__(self, caller: SignedCaller) -> None:
        self._caller = caller

    def create(self, order: SalesOrderInput, idempotency_key: Optional[str] = None) -> SalesOrder:
        """``POST /api/v1/sales-orders``: the created order, or the one an earlier attempt with
        the same Idempotency-Key created (a fresh UUID when omitted, reused on every retry)."""
        key = idempotency_key or str(uuid.uuid4())
        body = json.dumps(order).encode("utf-8")
        response = self._caller.call(
            "POST", "/api/v1/sales-orders", body, {"Idempotency-Key": key}
        )
        created: SalesOrder = response.body["data"]
        return created

    def get(self, order_id: str) -> SalesOrderDetail:
        """One order, with its ``history``."""
        found: SalesOrderDetail = self._caller.call("GET", _order_path(order_id)).body["data"]
        return found

    def list(
        self,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        status: Optional[OrderStatus] = None,
        created_from: Optional[Instant] = None,
        created_to: Optional[Instant] = None,
        purchase_order_no: Optional[str] = None,
    ) -> SalesOrderPage:
        """One page, newest first: ``{"data": [...], "next_cursor": ...}``."""
        params: Dict[str, Any] = {
            "limit": limit,
            "cursor": cursor,
            "status": status,
            "created_from": _instant("created_from", created_from),
            "created_to": _instant("created_to", created_to),
            "purchase_order_no": purchase_order_no,
        }
        pairs = [(k, str(v)) for k, v in params.items() if v is not None]
        query = "?" + urlencode(pairs, quote_via=quote) if pairs else ""
        page: SalesOrderPage = self._caller.call("GET", "/api/v1/sales-orders" + query).body
        return page

    def iterate(
        self,
        page_size: Optional[int] = None,
        status: Optional[OrderStatus] = None,
        created_from: Optional[Instant] = None,
        created_to: Optional[Instant] = None,
        purchase_order_no: Optional[str] = None,
    ) -> Iterator[SalesOrder]:
        """Every order the filters let through, newest first, page after page to the end."""
        cursor: Optional[str] = None
        while True:
            page = self.list(
                limit=page_size,
                cursor=cursor,
                status=status,
                created_from=created_from,
                created_to=created_to,
                purchase_order_no=purchase_order_no,
            )
            yield from page["data"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def cancel(self, order_id: str, reason: str) -> SalesOrderDetail:
        """Withdraws an order still ``received``; the cancelled order. Later: 409
        ``order_transition_invalid`` with ``current_status``. When an earlier attempt did cancel
        the order but its answer was lost, the cancelled order is returned, not the retry's 409."""
        path = _order_path(order_id) + "/cancel"
        if not isinstance(reason, str) or reason.strip() == "":
            raise TypeError("cancel needs a reason: a non-empty string")
        try:
            body = json.dumps({"reason": reason}).encode("utf-8")
            cancelled: SalesOrderDetail = self._caller.call("POST", path, body).body["data"]
            return cancelled
        except PartnerApiError as error:
            # Only a retried request can meet its own earlier success.
            if (
                error.attempts > 1
                and error.code == "order_transition_invalid"
                and error.problem.get("current_status") == "cancelled"
            ):
                order = self.get(order_id)
                if is_own_cancellation(order, reason):
                    return order
            raise
