"""The headers every answer carries: what a browser may load into the room's pages, and that
no other site may frame them.

A hostile page that frames the table can lay its own buttons over the room's (sit with a
buy-in, raise, fold) and trick a visitor's clicks: ``frame-ancestors 'none'`` and
``X-Frame-Options: DENY`` forbid any framing. The Content-Security-Policy lets a page load
only the room's own scripts, styles, images and websocket (no inline script, no other
host), so an injected tag runs nothing; ``nosniff`` stops a browser guessing a script
from a download; the ``Referrer-Policy`` keeps a table's address to this site.

FastAPI's own documentation pages (``/docs``, ``/redoc``) load their viewer from a CDN and
start it with an inline script: they alone get a policy that allows that CDN and those
scripts, and may still not be framed.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ROOM_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",  # the room's own websocket (ws/wss of this host) and API
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The policy of every page and answer of the room."""

DOCS_CDN: Final = "https://cdn.jsdelivr.net"
DOCS_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        f"script-src 'self' 'unsafe-inline' {DOCS_CDN}",
        f"style-src 'self' 'unsafe-inline' {DOCS_CDN} https://fonts.googleapis.com",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        "font-src 'self' https://fonts.gstatic.com",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
"""FastAPI's API documentation viewers (``/docs``, ``/redoc``): their CDN and inline start-up."""
DOCS_PATHS: Final = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})

COMMON: Final = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


def policy_for(path: str) -> str:
    """The Content-Security-Policy of the answer to ``path``."""
    return DOCS_POLICY if path in DOCS_PATHS else ROOM_POLICY


class SecurityHeaders:
    """ASGI middleware: every HTTP answer (pages, files, API, refusals) gets the headers above,
    unless the endpoint set one of them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = (*COMMON, (b"content-security-policy", policy_for(scope["path"]).encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                headers.extend(item for item in added if item[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
