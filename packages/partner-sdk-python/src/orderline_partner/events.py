"""``client.events.stream()``: the partner's events as server-sent events, resumed with
Last-Event-ID after a dropped connection so that none is lost or repeated."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.client import HTTPResponse
from typing import Callable, Iterable, Iterator, List, Optional
from urllib.parse import quote

from ._session import Session, failure_of, is_skew_refusal
from ._signed_call import SignedCaller
from ._transport import GatewayResponse, OutgoingRequest, Transport, retry_after_ms
from .errors import PartnerApiError
from .types import StreamEvent

MAX_DELAY_MS = 30_000


@dataclass
class _Message:
    id: Optional[str] = None
    event: Optional[str] = None
    data: Optional[str] = None
    retry: Optional[int] = None


def _messages(lines: Iterable[bytes]) -> Iterator[_Message]:
    """Complete messages of an event stream, one per blank line (comments skipped)."""
    message = _Message()
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            yield message
            message = _Message()
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            message.id = value
        elif field == "event":
            message.event = value
        elif field == "data":
            message.data = value if message.data is None else f"{message.data}\n{value}"
        elif field == "retry" and value.isdigit():
            message.retry = int(value)


class Events:
    def __init__(self, transport: Transport, session: Session, caller: SignedCaller) -> None:
        self._transport = transport
        self._session = session
        self._caller = caller
        self.sleep: Callable[[float], None] = lambda ms: time.sleep(ms / 1000)

    def _connect(self, target: str, last_event_id: Optional[str]) -> HTTPResponse:
        """Opens one signed connection; retries the refusals a fresh attempt fixes."""
        fixed: List[str] = []
        while True:
            token = self._session.token()
            headers = self._caller.headers("GET", target, None, token)
            headers["Accept"] = "text/event-stream"
            if last_event_id is not None:
                headers["Last-Event-ID"] = last_event_id
            # No read timeout beyond the heartbeats': the gateway sends one every few seconds.
            response = self._transport.open(OutgoingRequest("GET", target, headers), 120_000)
            if response.status == 200:
                return response
            with response:
                text = response.read().decode("utf-8", errors="replace")
            try:
                body = json.loads(text)
            except ValueError:
                body = {}
            error = failure_of(
                GatewayResponse(response.status, response.headers, body, response.headers.get("X-Request-Id"))
            )
            server_time = error.problem.get("server_time")
            if error.code == "token_expired" and "token" not in fixed:
                fixed.append("token")
                self._session.expired(token)
            elif is_skew_refusal(error) and "skew" not in fixed and isinstance(server_time, (int, float)):
                fixed.append("skew")
                self._transport.learn_server_seconds(server_time)
            elif response.status in (429, 503):
                # Shutting down or too many streams for now: wait as told, then open again.
                wait = retry_after_ms(response.headers.get("Retry-After"), time.time() * 1000)
                self.sleep(wait if wait is not None else 1000)
            else:
                raise error

    def stream(
        self,
        events: Optional[List[str]] = None,
        last_event_id: Optional[str] = None,
        stop: Optional[threading.Event] = None,
    ) -> Iterator[StreamEvent]:
        """The partner's events as they happen (``GET /api/v1/events/stream``), each one's
        ``data`` the exact body its webhook delivery carries. Starts after ``last_event_id`` when
        given; reconnects by itself after a dropped connection with Last-Event-ID; raises
        PartnerApiError only for a refusal a retry cannot fix. Ends when ``stop`` is set (checked
        between events and heartbeats) or when the caller stops iterating."""
        query = "?events=" + quote(",".join(events), safe="") if events else ""
        target = "/api/v1/events/stream" + query
        failures = 0
        while stop is None or not stop.is_set():
            try:
                response = self._connect(target, last_event_id)
            except PartnerApiError:
                raise
            except OSError:
                failures += 1
                self.sleep(min(MAX_DELAY_MS, 500 * 2**failures))
                continue
            failures = 0
            retry = 1000
            try:
                with response:
                    for message in _messages(response):
                        if message.retry is not None:
                            retry = message.retry
                        if message.id is not None:
                            last_event_id = message.id
                        if message.id is not None and message.event is not None and message.data is not None:
                            yield {"id": message.id, "type": message.event, "data": message.data}
                        if stop is not None and stop.is_set():
                            return
            except OSError:
                pass  # a dropped connection: open it again after the advised delay
            if stop is None or not stop.is_set():
                self.sleep(retry)
