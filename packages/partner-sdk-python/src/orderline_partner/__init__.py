"""Python SDK for the Orderline partner order gateway."""

from ._transport import retry_after_ms
from ._version import __version__
from .client import PartnerClient
from .errors import (
    WEBHOOK_SIGNATURE_FAILURES,
    PartnerApiError,
    PartnerNetworkError,
    WebhookSignatureError,
)
from .events import Events
from .sales_orders import SalesOrders
from .signing import (
    SignatureVersion,
    body_digest,
    private_key_of,
    sign_text,
    signature_headers,
    string_to_sign,
    string_to_sign_v1,
    string_to_sign_v2,
)
from .types import (
    CreatedWebhookEndpoint,
    FieldError,
    OrderChange,
    OrderStatus,
    ProductInput,
    RefusedRequest,
    RotatedWebhookSecret,
    SalesOrder,
    SalesOrderDetail,
    SalesOrderInput,
    SalesOrderPage,
    StreamEvent,
    TokenResponse,
    WebhookAttempt,
    WebhookEndpoint,
    WebhookEvent,
)
from .webhook_endpoints import RequestLog, WebhookEndpoints
from .webhooks import SIGNATURE_HEADER, sign_webhook, verify_webhook

__all__ = [
    "SIGNATURE_HEADER",
    "WEBHOOK_SIGNATURE_FAILURES",
    "CreatedWebhookEndpoint",
    "Events",
    "FieldError",
    "OrderChange",
    "OrderStatus",
    "PartnerApiError",
    "PartnerClient",
    "PartnerNetworkError",
    "ProductInput",
    "RefusedRequest",
    "RequestLog",
    "RotatedWebhookSecret",
    "SalesOrder",
    "SalesOrderDetail",
    "SalesOrderInput",
    "SalesOrderPage",
    "SalesOrders",
    "SignatureVersion",
    "StreamEvent",
    "TokenResponse",
    "WebhookAttempt",
    "WebhookEndpoint",
    "WebhookEndpoints",
    "WebhookEvent",
    "WebhookSignatureError",
    "__version__",
    "body_digest",
    "private_key_of",
    "retry_after_ms",
    "sign_text",
    "sign_webhook",
    "signature_headers",
    "string_to_sign",
    "string_to_sign_v1",
    "string_to_sign_v2",
    "verify_webhook",
]
