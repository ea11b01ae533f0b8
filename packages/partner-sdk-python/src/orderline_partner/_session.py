"""The partner's access token: login on first use, refresh before expiry, login after a refused
refresh; and the one turn of a non-2xx answer into the typed error."""

from __future__ import annotations

import json
import math
import threading
from typing import Any, Callable, Dict, Optional

from ._transport import GatewayResponse, OutgoingRequest, Transport
from .errors import PartnerApiError
from .types import TokenResponse

#: Refusals of a timestamp outside the window, which carry the server's time.
SKEW_CODES = frozenset({"timestamp_too_old", "timestamp_in_future"})


def is_skew_refusal(error: BaseException) -> bool:
    return isinstance(error, PartnerApiError) and error.code in SKEW_CODES


def failure_of(response: GatewayResponse) -> PartnerApiError:
    """Turns a non-2xx answer into the typed error."""
    body = response.body
    problem: Dict[str, Any] = (
        body if isinstance(body, dict) else {"detail": body[:500] if isinstance(body, str) else ""}
    )
    return PartnerApiError(response.status, problem, response.request_id, response.attempts)


class Session:
    def __init__(
        self,
        transport: Transport,
        client_id: str,
        client_secret: str,
        margin_seconds: float,
        login_proof: Optional[Callable[[], Dict[str, str]]],
    ) -> None:
        self._transport = transport
        self._client_id = client_id
        self._client_secret = client_secret
        self._margin = margin_seconds
        self._login_proof = login_proof
        self._token: Optional[TokenResponse] = None
        # One login or refresh at a time; concurrent callers wait for it and share its token.
        self._lock = threading.Lock()

    def _post(
        self, target: str, body: Dict[str, str], headers: Callable[[], Dict[str, str]]
    ) -> TokenResponse:
        data = json.dumps(body).encode("utf-8")
        response = self._transport.send(
            lambda: OutgoingRequest("POST", target, headers(), data)
        )
        if response.status != 200:
            raise failure_of(response)
        token: TokenResponse = response.body
        self._token = token
        return token

    def login(self) -> TokenResponse:
        proof = self._login_proof or (lambda: {})
        credentials = {"client_id": self._client_id, "client_secret": self._client_secret}
        try:
            return self._post("/api/v1/auth/login", credentials, proof)
        except PartnerApiError as error:
            # A signed login carries a timestamp: a clock off by more than the window is
            # corrected once from the refusal's server_time, as for order requests.
            server_time = error.problem.get("server_time")
            if not is_skew_refusal(error) or not isinstance(server_time, (int, float)):
                raise
            self._transport.learn_server_seconds(server_time)
            return self._post("/api/v1/auth/login", credentials, proof)

    def _renew(self) -> str:
        current = self._token
        if current is not None:
            try:
                return self._post("/api/v1/auth/refresh", {"token": current["token"]}, dict)[
                    "token"
                ]
            except PartnerApiError as error:
                # A refused refresh (reused, window closed, session too old) ends the session.
                if error.status != 401:
                    raise
        return self.login()["token"]

    def _fresh(self) -> Optional[str]:
        current = self._token
        now_seconds = math.floor(self._transport.server_now() / 1000)
        if current is not None and current["expired_at"] - self._margin > now_seconds:
            return current["token"]
        return None

    def token(self) -> str:
        """A token valid for at least the margin, renewing it when needed."""
        token = self._fresh()
        if token is not None:
            return token
        with self._lock:
            return self._fresh() or self._renew()

    def expired(self, stale: str) -> str:
        """The gateway said ``stale`` expired: renew unless another caller already did."""
        with self._lock:
            if self._token is not None and self._token["token"] == stale:
                self._token = {"token": stale, "expired_at": 0}
        return self.token()
