"""The errors the client raises: a refusal of the gateway, an unreachable gateway, a bad webhook."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from .types import FieldError


def _field_errors(problem: Mapping[str, Any]) -> List[FieldError]:
    errors = problem.get("errors")
    if not isinstance(errors, list):
        return []
    found: List[FieldError] = []
    for entry in errors:
        if (
            isinstance(entry, dict)
            and isinstance(entry.get("pointer"), str)
            and isinstance(entry.get("message"), str)
        ):
            field: FieldError = {"pointer": entry["pointer"], "message": entry["message"]}
            if isinstance(entry.get("in"), str):
                field["in"] = entry["in"]
            found.append(field)
    return found


def field_errors_text(errors: List[FieldError]) -> str:
    """'/currency must be …; /customer_code is required': every field, as the gateway wrote it."""
    return "; ".join(f"{e['pointer']} {e['message']}" for e in errors)


class PartnerApiError(Exception):
    """The gateway refused the request (an RFC 9457 problem).

    Branch on ``code`` (stable, listed in the gateway's errors reference); ``detail`` explains this
    instance; quote ``request_id`` to the integration team.
    """

    status: int
    code: str
    detail: str
    request_id: Optional[str]
    problem: Dict[str, Any]
    #: Each refused field with its message (a ``validation_failed`` problem's ``errors``), else [].
    field_errors: List[FieldError]
    #: How many times the request was sent (more than 1 after retries).
    attempts: int

    def __init__(
        self, status: int, problem: Dict[str, Any], request_id: Optional[str], attempts: int = 1
    ) -> None:
        code = problem.get("code")
        self.code = code if isinstance(code, str) else f"http_{status}"
        detail = problem.get("detail")
        title = problem.get("title")
        self.detail = (
            detail if isinstance(detail, str) else title if isinstance(title, str) else f"HTTP {status}"
        )
        self.field_errors = _field_errors(problem)
        self.status = status
        self.request_id = request_id
        self.problem = problem
        self.attempts = attempts
        text = field_errors_text(self.field_errors) if self.field_errors else self.detail
        suffix = f" (request {request_id})" if request_id else ""
        super().__init__(f"{self.code}: {text}{suffix}")


class PartnerNetworkError(Exception):
    """The gateway could not be reached (or did not answer in time), also after the retries."""

    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


#: Why a webhook delivery was not accepted.
WEBHOOK_SIGNATURE_FAILURES = (
    "header_missing",
    "header_malformed",
    "no_matching_signature",
    "timestamp_outside_tolerance",
    "payload_not_json",
)


class WebhookSignatureError(Exception):
    """A webhook delivery that must not be trusted: answer it with a 4xx (400 is usual).

    ``reason`` says why, for logs: one of ``WEBHOOK_SIGNATURE_FAILURES``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
