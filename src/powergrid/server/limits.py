"""Refuse request bodies over a size limit with 413 body_too_large, before the app reads them."""

from __future__ import annotations

import json
from typing import Any

Scope = dict[str, Any]


class BodyLimit:
    """Pure ASGI middleware: checks Content-Length, then counts the bytes actually sent."""

    def __init__(self, app: Any, max_bytes: int, per_path: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.per_path = per_path or {}  # exact paths allowed a different limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope.get("path", ""), self.max_bytes)
        if limit != self.max_bytes:
            await BodyLimit(self.app, limit)(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_bytes
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(send)
                    return
        # read the whole (bounded) body first, then hand it on
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        await self.app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive),
                       send)

    async def _refuse(self, send: Any) -> None:
        payload = json.dumps({"error": {"code": "body_too_large",
                                        "message": f"request bodies are limited to {self.max_bytes} bytes"}})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode())]})
        await send({"type": "http.response.body", "body": payload.encode()})


def _replay(messages: list[dict[str, Any]], then: Any = None) -> Any:
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        if queue:
            return queue.pop(0)
        if then is not None:
            message: dict[str, Any] = await then()
            return message
        return {"type": "http.disconnect"}

    return receive
