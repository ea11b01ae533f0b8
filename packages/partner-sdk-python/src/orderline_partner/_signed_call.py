"""Signed calls with their one-time corrections: token renewal, clock, signature version."""

from __future__ import annotations

import math
import threading
from typing import Callable, Dict, Optional, Set

from cryptography.hazmat.primitives.asymmetric import rsa

from ._session import Session, failure_of, is_skew_refusal
from ._transport import GatewayResponse, OutgoingRequest, Transport
from .errors import PartnerApiError
from .signing import SignatureVersion, signature_headers


def timestamp_source(server_now: Callable[[], float]) -> Callable[[], str]:
    """X-TIMESTAMP values in Unix milliseconds on the server's clock, never the same twice: each
    attempt (a retry included) is a request of its own, which the gateway refuses to see twice."""
    last = 0
    lock = threading.Lock()

    def next_timestamp() -> str:
        nonlocal last
        with lock:
            now = math.floor(server_now())
            # After the estimate moved back (a correction), start again from it: the timestamps
            # ahead were refused as out of the window, so none of them was ever accepted.
            last = now if now > last or last - now > 1000 else last + 1
            return str(last)

    return next_timestamp


class SignedCaller:
    def __init__(
        self,
        transport: Transport,
        session: Session,
        private_key: rsa.RSAPrivateKey,
        client_id: str,
        next_timestamp: Callable[[], str],
        version: SignatureVersion,
    ) -> None:
        self._transport = transport
        self._session = session
        self._key = private_key
        self._client_id = client_id
        self._next_timestamp = next_timestamp
        #: 1 turns into 2 for good on ``signature_version_required``.
        self.version: SignatureVersion = version

    def headers(self, method: str, target: str, body: Optional[bytes], token: str) -> Dict[str, str]:
        """One attempt's authorization and signature headers, signed afresh."""
        signed = signature_headers(
            self._key,
            self.version,
            self._client_id,
            self._next_timestamp(),
            method,
            target,
            body if body is not None else b"",
        )
        return {"Authorization": f"Bearer {token}", **signed.headers}

    def _correction(self, error: PartnerApiError, done: Set[str]) -> Optional[str]:
        if error.code == "token_expired" and "renew_token" not in done:
            return "renew_token"
        server_time = error.problem.get("server_time")
        if (
            is_skew_refusal(error)
            and "fix_clock" not in done
            and isinstance(server_time, (int, float))
        ):
            return "fix_clock"
        if error.code == "signature_version_required" and self.version == 1:
            return "sign_v2"
        return None

    def call(
        self,
        method: str,
        target: str,
        body: Optional[bytes] = None,
        extra_headers: Optional[Dict[str, str]] = None,
    ) -> GatewayResponse:
        """A 2xx answer, or the typed error. Every attempt carries its own token, timestamp and
        signature; ``extra_headers`` (an Idempotency-Key) stay the same on every attempt."""
        done: Set[str] = set()
        attempts = 0
        while True:
            token = ""

            def build() -> OutgoingRequest:
                nonlocal token
                token = self._session.token()
                headers = self.headers(method, target, body, token)
                return OutgoingRequest(method, target, {**headers, **(extra_headers or {})}, body)

            response = self._transport.send(build)
            if response.status < 300:
                return response
            attempts += response.attempts
            response.attempts = attempts
            error = failure_of(response)
            correction = self._correction(error, done)
            if correction is None:
                raise error
            done.add(correction)
            if correction == "renew_token":
                self._session.expired(token)
            elif correction == "fix_clock":
                self._transport.learn_server_seconds(float(error.problem["server_time"]))
            else:
                self.version = 2
