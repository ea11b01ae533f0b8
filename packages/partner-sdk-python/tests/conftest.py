"""The real gateway these tests run against: started by the vitest file that runs them
(packages/partner-sdk/test/python-sdk.test.ts), which passes its control API's address as
ORDERLINE_TEST_HARNESS (see packages/partner-sdk/test/support/harness.ts)."""

from __future__ import annotations

import json
import os
import urllib.request
from typing import Any, Callable, Dict, List

import pytest

from orderline_partner import PartnerClient


class Harness:
    def __init__(self, url: str) -> None:
        self.url = url
        self.gateway_url: str = self.call("GET", "/")["gateway_url"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode("utf-8")
        return json.loads(text) if text else None

    def partner(self, signature_version: int = 1) -> Dict[str, str]:
        created: Dict[str, str] = self.call("POST", "/partners", {"signature_version": signature_version})
        return created


class Proxy:
    """A fault proxy in front of the gateway: answers 429/503, loses answers, cuts connections."""

    def __init__(self, harness: Harness, fault_path: str = "/api/v1/sales-orders") -> None:
        self._harness = harness
        created = harness.call("POST", "/proxies", {"fault_path": fault_path})
        self.id: str = created["id"]
        self.url: str = created["url"]

    def faults(self, *faults: Dict[str, Any]) -> None:
        self._harness.call("PUT", f"/proxies/{self.id}/faults", list(faults))

    def attempts(self, path_prefix: str = "/api/v1/sales-orders") -> List[Dict[str, Any]]:
        every: List[Dict[str, Any]] = self._harness.call("GET", f"/proxies/{self.id}/attempts")
        return [a for a in every if a["url"].startswith(path_prefix)]


@pytest.fixture(scope="session")
def harness() -> Harness:
    url = os.environ.get("ORDERLINE_TEST_HARNESS")
    if not url:
        raise RuntimeError(
            "ORDERLINE_TEST_HARNESS is not set: run these tests through "
            "`npx vitest run packages/partner-sdk/test/python-sdk.test.ts`, which starts a gateway"
        )
    return Harness(url)


@pytest.fixture
def partner(harness: Harness) -> Dict[str, str]:
    return harness.partner()


@pytest.fixture
def proxy(harness: Harness) -> Proxy:
    return Proxy(harness)


@pytest.fixture
def client_for(partner: Dict[str, str]) -> Callable[..., PartnerClient]:
    def make(base_url: str, **options: Any) -> PartnerClient:
        settings: Dict[str, Any] = {
            "client_id": partner["client_id"],
            "client_secret": partner["client_secret"],
            "private_key": partner["private_key_pem"],
            "retry_base_delay": 0.005,
            **options,
        }
        return PartnerClient(base_url=base_url, **settings)

    return make


def order(po: str, **fields: Any) -> Dict[str, Any]:
    return {
        "customer_code": "CUST-001",
        "site_code": "SITE-01",
        "sales_name": "Dana Sales",
        "address": "1 Harbour Road",
        "purchase_order_no": po,
        "products": [{"product_code": "SKU-1", "quantity": 2}],
        **fields,
    }
