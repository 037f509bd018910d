"""Schemathesis generates requests from the OpenAPI spec: none may get a 5xx."""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

warnings.filterwarnings("ignore", message=".*httpx.*")

import schemathesis  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from powergrid.server import Settings, create_app  # noqa: E402
from powergrid.server.limits import Limits  # noqa: E402

pytestmark = [pytest.mark.timeout(120), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

_dir = tempfile.mkdtemp(prefix="powergrid-fuzz-")
# no per-client limits: the fuzzer is one client sending hundreds of requests (test_limits tests them)
app = create_app(Settings(database_url=f"sqlite:///{_dir}/fuzz.db", redis_url=None,
                          limits=Limits(enabled=False)))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        # a game to aim at, so that some generated ids hit a real game
        c.post("/api/games", json={"players": 2, "seed": 1, "seats": [{"kind": "human"}, {"kind": "human"}]})
        yield c


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: schemathesis.Case, client: TestClient) -> None:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    response = client.request(**kwargs)
    case.validate_response(response, checks=[not_a_server_error])
