"""The gateway's shapes as typed dictionaries: what the client sends and returns."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Union

if sys.version_info >= (3, 11):
    from typing import Literal, NotRequired, TypedDict
else:  # pragma: no cover - Python 3.9 and 3.10
    from typing_extensions import Literal, NotRequired, TypedDict

OrderStatus = Literal["received", "accepted", "rejected", "fulfilled", "cancelled"]


#: One refused field of a ``validation_failed`` problem: ``in`` (``body``, ``querystring``, …),
#: ``pointer`` (JSON Pointer, e.g. ``/products/0/quantity``) and ``message`` (what it accepts).
FieldError = TypedDict(
    "FieldError", {"in": NotRequired[str], "pointer": str, "message": str}
)


class ProductInput(TypedDict):
    product_code: str
    quantity: int
    uom: NotRequired[str]
    unit_price: NotRequired[Union[float, int, str]]
    notes: NotRequired[str]


class SalesOrderInput(TypedDict):
    """The body of a sales order creation."""

    customer_code: str
    site_code: str
    sales_name: str
    address: str
    purchase_order_no: NotRequired[Optional[str]]
    #: ISO 4217 code of the prices' currency, where the gateway supports it.
    currency: NotRequired[Optional[str]]
    products: List[ProductInput]


class OrderLine(TypedDict):
    line_no: int
    product_code: str
    quantity: int
    uom: Optional[str]
    unit_price: Optional[float]
    notes: Optional[str]


class SalesOrder(TypedDict):
    id: str
    order_number: str
    status: OrderStatus
    client_id: str
    purchase_order_no: Optional[str]
    currency: Optional[str]
    customer_code: str
    site_code: str
    sales_name: str
    address: str
    products: List[OrderLine]
    created_at: str
    #: 1 at creation, +1 on every status change.
    version: int
    updated_at: str


class OrderActor(TypedDict):
    type: Literal["partner", "user"]
    name: Optional[str]


#: One entry of an order's history: its creation (``from`` None) or a status change.
OrderChange = TypedDict(
    "OrderChange",
    {
        "from": Optional[OrderStatus],
        "to": OrderStatus,
        "at": str,
        "reason": Optional[str],
        "actor": OrderActor,
    },
)


class SalesOrderDetail(SalesOrder):
    """One order as ``get`` and ``cancel`` return it: with its history, oldest first."""

    history: List[OrderChange]


class SalesOrderPage(TypedDict):
    data: List[SalesOrder]
    #: Pass as ``cursor`` for the next (older) page; None on the last page.
    next_cursor: Optional[str]


class TokenResponse(TypedDict):
    token: str
    #: Unix seconds.
    expired_at: int


class WebhookEndpoint(TypedDict):
    #: ``we_…``
    id: str
    url: str
    events: List[str]
    enabled: bool
    disabled_reason: Optional[str]
    created_at: str
    updated_at: str
    last_success_at: Optional[str]
    failing_since: Optional[str]


class CreatedWebhookEndpoint(WebhookEndpoint):
    #: ``whsec_…``: shown this once.
    secret: str


class RotatedWebhookSecret(TypedDict):
    secret: str
    previous_valid_until: Optional[str]


class WebhookAttempt(TypedDict):
    id: str
    event_id: str
    event_type: str
    attempt: int
    status: Literal["succeeded", "failed"]
    response_status: Optional[int]
    duration_ms: int
    error: Optional[str]
    attempted_at: str


class RefusedRequest(TypedDict):
    """One refused request of the partner (``GET /api/v1/request-log``)."""

    at: str
    method: str
    path: str
    status: int
    code: str
    request_id: str
    detail: Optional[str]
    #: For a signature failure: ``signature_version``, ``string_to_sign`` and ``hints``.
    expected: Optional[Dict[str, Any]]


class WebhookEvent(TypedDict):
    """One delivery's body, once verified."""

    #: ``evt_…``: the same on every retry of this event; de-duplicate on it.
    id: str
    type: str
    created_at: str
    data: Dict[str, Any]


class StreamEvent(TypedDict):
    """One event off the gateway's stream: ``data`` is the exact webhook body (JSON text)."""

    id: str
    type: str
    data: str
