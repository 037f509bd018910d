"""The whole suite's order. pytest-xdist hands tests out in collection order, and a long test
(marked ``long``: a whole game through a browser, a clock that must run out) near the end of the
list keeps one worker busy while the other has nothing left to do. So the browser tests come
first, the long ones first among them, then the long others, then the rest. The browser tests
go together because a worker's browser (tests/web/conftest.py, scoped to that package) keeps
Playwright's event loop running until the last of them: a test that calls ``asyncio.run`` in
between would fail."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # a stable sort: the order within each group is kept
    items.sort(key=lambda item: ("browser" not in getattr(item, "fixturenames", ()),
                                 item.get_closest_marker("long") is None))
