"""Schemathesis generates requests from the OpenAPI spec: none may get a 5xx."""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

warnings.filterwarnings("ignore", message=".*httpx.*")

import schemathesis  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from powergrid.server import Settings, create_app  # noqa: E402
from powergrid.server.common.limits import Limits  # noqa: E402

from .conftest import needs_postgres, pg_schema_url  # noqa: E402

pytestmark = [pytest.mark.timeout(120), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

_dir = tempfile.mkdtemp(prefix="powergrid-fuzz-")


def fuzz_app(database_url: str) -> Any:
    # no per-client limits: the fuzzer is one client sending hundreds of requests (test_limits tests them)
    return create_app(Settings(database_url=database_url, redis_url=None, limits=Limits(enabled=False)))


schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_app(f"sqlite:///{_dir}/spec.db"))
# valid requests and invalid ones (wrong types, out-of-range numbers, missing fields): the schema's
# types are strict, so a string or a boolean where a number belongs is a named 4xx, never a 5xx
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    if request.param == "sqlite":
        urls: Iterator[str] = iter([f"sqlite:///{_dir}/fuzz.db"])
    else:
        urls = pg_schema_url()
    url = next(urls)
    try:
        with TestClient(fuzz_app(url), raise_server_exceptions=False) as c:
            # a game to aim at, so that some generated ids hit a real game
            c.post("/api/games", json={"players": 2, "seed": 1,
                                       "seats": [{"kind": "human"}, {"kind": "human"}]})
            yield c
    finally:
        next(urls, None)  # the PostgreSQL schema is dropped


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: schemathesis.Case, client: TestClient) -> None:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    response = client.request(**kwargs)
    case.validate_response(response, checks=[not_a_server_error])
