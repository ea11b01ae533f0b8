"""HTTP to the gateway: a fresh request per attempt, retries with backoff, the server's clock."""

from __future__ import annotations

import email.utils
import json
import random
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.client import HTTPMessage, HTTPResponse
from typing import Any, Callable, Dict, Optional

from .errors import PartnerNetworkError

#: 429 (too many requests) and 503 (shutting down, overloaded): an attempt that may succeed later.
RETRIED_STATUSES = frozenset({429, 503})


def retry_after_ms(header: Optional[str], now_ms: float) -> Optional[float]:
    """Retry-After as delta-seconds or an HTTP date, in ms; None when absent or unreadable."""
    if header is None or header.strip() == "":
        return None
    value = header.strip()
    if re.fullmatch(r"\d+", value):
        return int(value) * 1000.0
    try:
        at = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, at.timestamp() * 1000 - now_ms)


@dataclass
class OutgoingRequest:
    method: str
    #: Path and query, as sent and signed.
    target: str
    headers: Dict[str, str]
    body: Optional[bytes] = None


@dataclass
class GatewayResponse:
    status: int
    headers: HTTPMessage
    body: Any
    request_id: Optional[str]
    #: How many times the request was sent: above 1, an earlier attempt may have been acted on.
    attempts: int = 1


@dataclass
class TransportOptions:
    base_url: str
    now: Callable[[], float] = field(default=lambda: time.time() * 1000)
    max_retries: int = 3
    retry_base_delay_ms: float = 250
    max_retry_after_ms: float = 30_000
    timeout_ms: float = 30_000
    user_agent: str = "orderline-partner-python"
    sleep: Callable[[float], None] = field(default=lambda ms: time.sleep(ms / 1000))


def _no_redirects() -> urllib.request.OpenerDirector:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    return urllib.request.build_opener(NoRedirect)


class Transport:
    """Each attempt is built afresh (fresh timestamp and signature); 429, 503 and network errors
    are retried with exponential backoff and full jitter, a Retry-After honoured; the server's
    clock offset is learned from every ``Date``."""

    def __init__(self, options: TransportOptions) -> None:
        self.options = options
        #: Server clock minus local clock, in ms.
        self.offset_ms = 0.0
        self._opener = _no_redirects()

    def server_now(self) -> float:
        """The server's current time as best known, Unix ms."""
        return self.options.now() + self.offset_ms

    def learn_server_seconds(self, server_seconds: float) -> None:
        """Learns from a server time known to the second (a problem's ``server_time``)."""
        self._learn_second(server_seconds * 1000)

    def _learn_date(self, headers: HTTPMessage) -> None:
        date = headers.get("Date")
        if date is None:
            return
        try:
            at = email.utils.parsedate_to_datetime(date)
        except (TypeError, ValueError):
            return
        self._learn_second(at.timestamp() * 1000)

    def _learn_second(self, second_start_ms: float) -> None:
        # An estimate inside the second is kept (its milliseconds are better than the midpoint);
        # outside it, the second's midpoint is the best estimate.
        estimate = self.server_now()
        if second_start_ms <= estimate < second_start_ms + 1000:
            return
        self.offset_ms = second_start_ms + 500 - self.options.now()

    def _backoff(self, attempt: int) -> float:
        return random.random() * self.options.retry_base_delay_ms * float(2**attempt)

    def open(self, request: OutgoingRequest, timeout_ms: Optional[float] = None) -> HTTPResponse:
        """One attempt; an HTTP error status is returned as a response, not raised."""
        headers = {
            "Accept": "application/json",
            "User-Agent": self.options.user_agent,
            **({} if request.body is None else {"Content-Type": "application/json"}),
            **request.headers,
        }
        prepared = urllib.request.Request(
            self.options.base_url + request.target,
            data=request.body,
            method=request.method,
            headers=headers,
        )
        timeout = (timeout_ms if timeout_ms is not None else self.options.timeout_ms) / 1000
        try:
            response: HTTPResponse = self._opener.open(prepared, timeout=timeout)
            return response
        except urllib.error.HTTPError as error:
            return error  # type: ignore[return-value]

    def send(self, build: Callable[[], OutgoingRequest]) -> GatewayResponse:
        max_retries = self.options.max_retries
        attempt = 0
        while True:
            request = build()
            try:
                response = self.open(request)
                status = response.status
                self._learn_date(response.headers)
                if status in RETRIED_STATUSES and attempt < max_retries:
                    wait = retry_after_ms(response.headers.get("Retry-After"), self.options.now())
                    if wait is None or wait <= self.options.max_retry_after_ms:
                        response.close()
                        self.options.sleep(wait if wait is not None else self._backoff(attempt))
                        attempt += 1
                        continue
                return _read_response(response, attempt + 1)
            except (urllib.error.URLError, OSError) as error:
                if attempt < max_retries:
                    self.options.sleep(self._backoff(attempt))
                    attempt += 1
                    continue
                raise PartnerNetworkError(
                    f"{request.method} {self.options.base_url}{request.target} failed after "
                    f"{attempt + 1} attempt(s): {error}",
                    attempt + 1,
                ) from error


def _read_response(response: HTTPResponse, attempts: int) -> GatewayResponse:
    with response:
        raw = response.read()
    text = raw.decode("utf-8", errors="replace")
    body: Any = text
    if "json" in (response.headers.get("Content-Type") or "").lower() and text != "":
        try:
            body = json.loads(text)
        except ValueError:
            body = text
    from_body = str(body["request_id"]) if isinstance(body, dict) and "request_id" in body else None
    return GatewayResponse(
        status=response.status,
        headers=response.headers,
        body=body,
        request_id=response.headers.get("X-Request-Id") or from_body,
        attempts=attempts,
    )
