"""``PartnerClient``: every call gets a token (login on first use, refresh before expiry, once
more on ``token_expired``), a fresh millisecond timestamp on the server's clock and a fresh
signature; failures become PartnerApiError with the problem's code."""

from __future__ import annotations

import re
import time
from typing import Callable, Dict, Optional, Union

from cryptography.hazmat.primitives.asymmetric import rsa

from ._session import Session
from ._signed_call import SignedCaller, timestamp_source
from ._transport import Transport, TransportOptions
from ._version import __version__
from .events import Events
from .sales_orders import SalesOrders
from .signing import SignatureVersion, private_key_of, signature_headers
from .types import TokenResponse
from .webhook_endpoints import RequestLog, WebhookEndpoints

USER_AGENT = f"orderline-partner-python/{__version__}"


class PartnerClient:
    """A client for the partner API.

    ``private_key``: the RSA private key whose public key is registered (PEM text or bytes, or a
    loaded key). ``signature_version`` 2 (the default) signs method, path and body; 1 signs
    ``client_id|timestamp`` only. Retries (``max_retries``, 3) cover 429, 503 and network errors
    and timeouts, waiting ``retry_base_delay`` seconds doubled per retry with full jitter or as
    Retry-After says (up to ``max_retry_after`` seconds; a longer one is raised). ``timeout`` is
    per attempt; the token is renewed ``refresh_margin`` seconds before it expires.
    ``sign_login`` (True) signs the login with the key, so failed logins of someone guessing the
    secret elsewhere never throttle it.
    """

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        private_key: Union[str, bytes, rsa.RSAPrivateKey],
        signature_version: SignatureVersion = 2,
        max_retries: int = 3,
        retry_base_delay: float = 0.25,
        max_retry_after: float = 30.0,
        timeout: float = 30.0,
        refresh_margin: float = 60.0,
        sign_login: bool = True,
        now: Optional[Callable[[], float]] = None,
    ) -> None:
        base = base_url.rstrip("/")
        if not re.match(r"^https?://", base):
            raise TypeError(f"base_url must start with http:// or https:// (got '{base_url}')")
        if not client_id or not client_secret:
            raise TypeError("client_id and client_secret are required")
        if signature_version not in (1, 2):
            raise TypeError("signature_version must be 1 or 2")
        key = private_key_of(private_key)
        clock = now or time.time
        self._transport = Transport(
            TransportOptions(
                base_url=base,
                now=lambda: clock() * 1000,
                max_retries=max_retries,
                retry_base_delay_ms=retry_base_delay * 1000,
                max_retry_after_ms=max_retry_after * 1000,
                timeout_ms=timeout * 1000,
                user_agent=USER_AGENT,
            )
        )
        next_timestamp = timestamp_source(self._transport.server_now)

        def login_proof() -> Dict[str, str]:
            # A login always signs the seed's string, client_id|X-TIMESTAMP (version 1).
            return signature_headers(
                key, 1, client_id, next_timestamp(), "POST", "/api/v1/auth/login"
            ).headers

        self._session = Session(
            self._transport,
            client_id,
            client_secret,
            refresh_margin,
            login_proof if sign_login else None,
        )
        self._caller = SignedCaller(
            self._transport, self._session, key, client_id, next_timestamp, signature_version
        )
        #: ``create``, ``get``, ``list``, ``iterate``, ``cancel``.
        self.sales_orders = SalesOrders(self._caller)
        #: The partner's own webhook endpoints: register, test, inspect, resend, rotate.
        self.webhook_endpoints = WebhookEndpoints(self._caller)
        #: The partner's own refused requests of the last 7 days.
        self.request_log = RequestLog(self._caller)
        #: ``stream()``: the partner's events as they happen.
        self.events = Events(self._transport, self._session, self._caller)

    def login(self) -> TokenResponse:
        """Logs in now (otherwise the first call does); returns the token response."""
        return self._session.login()

    @property
    def signature_version(self) -> SignatureVersion:
        """The version in use: 1 turns into 2 for good on ``signature_version_required``."""
        return self._caller.version
