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
#: The offline app at /app/ runs Python compiled to WebAssembly (Pyodide) in a worker: the
#: same policy, with WebAssembly allowed to compile (and nothing else to be evaluated).
APP_POLICY = PAGES_POLICY.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds the headers to every HTTP response (the API docs page too: it is served offline,
    from the server's own files, without inline script)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = APP_POLICY if scope["path"].startswith("/app/") else PAGES_POLICY
        added = [*COMMON, (b"content-security-policy", policy.encode())]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        await self.app(scope, receive, send_with_headers)
