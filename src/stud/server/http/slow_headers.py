"""A bound on how long a client may take to send a request's headers.

uvicorn waits for a request's headers without end once its first byte has come (its
keep-alive timeout only covers an idle connection), so a client sending a header a
minute holds a connection, a file descriptor and a parser each, for as long as it
likes: a few hundred such clients crowd out everyone else. The room's HTTP protocol is
uvicorn's own (httptools) with a clock: from the connection's opening, and from the
first byte of each further request on it, the headers must be complete within
``seconds`` or the connection is closed. Behind a proxy the proxy does the same
(nginx ``client_header_timeout``, docs/deploy.md).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_SECONDS = 10.0
"""The room's default bound (``stud serve --header-timeout``)."""


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers are late."""

    header_seconds: float = HEADER_SECONDS
    _header_clock: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_clock()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_clock is None:  # a further request on a kept-alive connection
            self._start_header_clock()

    def on_headers_complete(self) -> None:
        self._stop_header_clock()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_clock()
        super().connection_lost(exc)

    def _start_header_clock(self) -> None:
        self._header_clock = self.loop.call_later(self.header_seconds, self._headers_too_late)

    def _stop_header_clock(self) -> None:
        if self._header_clock is not None:
            self._header_clock.cancel()
            self._header_clock = None

    def _headers_too_late(self) -> None:
        self._header_clock = None
        if not self.transport.is_closing():
            self.transport.close()


def header_deadline(seconds: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class (what ``uvicorn.run(http=...)`` takes) with a bound of ``seconds``."""
    return type("HeaderDeadline", (HeaderDeadlineProtocol,), {"header_seconds": seconds})
