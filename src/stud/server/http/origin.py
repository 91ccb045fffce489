"""Cross-site requests: only pages of this site may change anything here.

A page on another site can make a visitor's browser send a form or a
``fetch`` to this server, cookies included (login CSRF: ``POST /api/guest``
from a foreign page swaps the visitor's session for the attacker's). Browsers
say where a request comes from in ``Origin`` (and ``Sec-Fetch-Site``), which
a page cannot forge; so every state-changing request (any method but GET,
HEAD and OPTIONS) and every websocket must come from this site's own origin,
or from one the operator allowed. A request without ``Origin`` or
``Referer`` is not a browser's cross-site request (curl, scripts, tests) and
passes: there is no victim's browser to borrow a session from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from stud.server.errors import error_body
from stud.server.wire import dumps

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


DEFAULT_PORTS = {"http": 80, "https": 443}


def _site(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a web origin (the default port filled in), or None."""
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    if scheme not in DEFAULT_PORTS or not netloc:
        return None
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError:  # a port that is not a number
        return None
    return scheme, (parts.hostname or "").lower(), port


def foreign_origin(
    headers: Mapping[str, str], allowed: Iterable[str] = (), scheme: str = "http"
) -> str | None:
    """The foreign origin a request comes from, or None when it is this site's own.

    ``headers`` are lower-case names; ``scheme`` is how this request reached the room
    (``http``/``https``, ``ws``/``wss``; a trusted proxy's ``X-Forwarded-Proto`` already
    applied); ``allowed`` are extra origins (``https://example.com``) the operator trusts.
    The origin is this site's when scheme, host and port all agree: an ``https://`` page
    is not the ``http://`` site of the same name.
    """
    if headers.get("sec-fetch-site") == "cross-site":
        return headers.get("origin") or "a cross-site page"
    origin = headers.get("origin")
    if origin is None:
        referer = headers.get("referer")
        if referer is None:
            return None
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    if origin == "null":
        return "an opaque origin (null)"
    if origin in allowed:
        return None
    parts = urlsplit(origin)
    mine = _site(scheme, headers.get("host", ""))
    if mine is not None and _site(parts.scheme, parts.netloc) == mine:
        return None
    return origin


class OriginCheck:
    """ASGI middleware: a state-changing request from another site gets 403 and changes nothing."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers = {
                k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])
            }
            origin = foreign_origin(headers, self.allowed, scope.get("scheme", "http"))
            if origin is not None:
                body = dumps(
                    error_body(
                        "cross_site", f"cross-site request refused: {origin} is not this site"
                    )
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
