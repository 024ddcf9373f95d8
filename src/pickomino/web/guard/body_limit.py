"""A request's body has a bound: the API's bodies are a few hundred bytes, and a stranger
must not make the app hold megabytes of one request in memory."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pickomino.web.errors import Refused


class BodyLimit:
    """Refuses a request whose body is over ``limit`` bytes (413): at once when the declared
    length says so, else while reading it (a chunked body declares none), so the app never
    holds more than ``limit`` bytes of one request; the API's bodies are a few hundred bytes."""

    def __init__(self, app: ASGIApp, limit: int = 16 * 1024) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        body, replayed = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = Refused("body_too_big", most=self.limit).to_dict()
        too_big = JSONResponse({"detail": detail}, status_code=413)
        await too_big(scope, receive, send)
