"""Security headers on every HTTP answer: the pages run only the server's own scripts and
styles (ES modules, no inline script), may not be framed, are not sniffed as another type,
and never send their address (which may hold a seat token) to another site."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The app's pages: only this server's scripts, styles, images and sockets.
PAGES_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: The API documentation pages (Swagger UI, ReDoc) start themselves with an inline script
#: and load their files from a CDN; they hold no secret.
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "font-src 'self' https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds the headers to every HTTP response; ``docs_paths`` get :data:`DOCS_POLICY`."""

    def __init__(self, app: ASGIApp, docs_paths: tuple[str, ...] = ()) -> None:
        self.app, self.docs_paths = app, docs_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope["path"] in self.docs_paths else PAGES_POLICY
        added = [*COMMON, (b"content-security-policy", policy.encode())]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        await self.app(scope, receive, send_with_headers)
