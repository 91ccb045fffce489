"""Websocket frames sent in one turn of the event loop leave in one system call.

uvicorn writes each websocket frame to its socket as soon as it is sent, and
uvloop makes that a ``write(2)`` of its own when nothing is queued. A table's
step sends each client several messages at once (the step's events, then its
state): one system call per message was the largest single cost of an action
(docs/performance.md). Here the frames a connection is given during one
turn of the loop are joined and written together at the end of that turn.
The bytes on the wire are the same frames in the same order, and every write
of the connection (handshake, pings, close) goes through the same queue, so
none can overtake another; a close writes what is queued before it closes.

The messages a connection that asked for batches (``/ws?batch=1``) is sent
during one turn leave in one frame: a JSON array of them, in order
(docs/protocol.md, "Websocket: server → client"); a table's step (its events,
then the state) is one frame per watcher, not one per message. A turn with a
single message sends it as it is, and so does every message to other clients. A server's text
frame is the same bytes for every client (unmasked, and the room negotiates
no compression): a lone message sent to many clients in one turn (a chat line,
a spectators' state) is framed once.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable, Iterable
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import OPEN
from websockets.streams import StreamReader

from stud.server.ws.frames import whole_text_frames

BATCH_CHARS = 1 << 18
"""A frame of several messages holds about this many characters at most (a client that
reconnects may be sent a thousand missed events in one turn): past it, the next frame."""

SEND_NOW = "stud.send_now"
"""The ASGI scope extension under which :class:`BatchingWebSocketProtocol` offers ``send``:
a callable taking a message's text, True if it queued the message at once (for the turn's
frame)."""


BATCH_QUERY = "batch=1"
"""In a websocket URL's query (``/ws?batch=1``): the client reads frames of several messages."""


def wants_batches(scope: Any) -> bool:
    """Whether the client asked for a turn's messages in one frame (docs/protocol.md)."""
    query = scope.get("query_string") or b""
    text = query.decode("latin-1") if isinstance(query, bytes) else str(query)
    return BATCH_QUERY in text.split("&")


def batch_text(texts: list[str]) -> str:
    """Several messages' texts (each a JSON object) as the one text of a frame: a JSON array."""
    return "[" + ",".join(texts) + "]"


def text_frame(text: str) -> bytes:
    """A server's text frame carrying ``text``: final, unmasked, no extension (RFC 6455 5.2)."""
    payload = text.encode()
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    if length < 65536:
        return struct.pack("!BBH", 0x81, 126, length) + payload
    return struct.pack("!BBQ", 0x81, 127, length) + payload


class FrameCache:
    """The text frames made during one turn of the event loop, by message object.

    Keyed by the message's identity (the entry keeps the message, so its id is
    not reused while the entry lives) and emptied at the end of the turn: a
    message handed to many connections is framed once, and no frame outlives
    the turn that made it.
    """

    def __init__(self) -> None:
        self._frames: dict[int, tuple[str, bytes]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def frame(self, text: str, loop: asyncio.AbstractEventLoop) -> bytes:
        made = self._frames.get(id(text))
        if made is not None and made[0] is text:
            return made[1]
        if self._loop is not loop:  # the first of this turn (or left by a loop now gone)
            self._frames.clear()
            self._loop = loop
            loop.call_soon(self._clear)
        frame = text_frame(text)
        self._frames[id(text)] = (text, frame)
        return frame

    def _clear(self) -> None:
        self._frames.clear()
        self._loop = None


FRAMES = FrameCache()


class BatchingTransport(asyncio.Transport):
    """A transport that queues writes and hands them to the real one once per loop turn.

    Text messages given to :meth:`add_text` wait as text until the turn's end (or
    until anything else is written) and leave as one frame; other writes keep
    their place after them.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._queued: list[bytes] = []
        self.texts: list[str] = []
        """Messages of this turn not framed yet (nothing was written since the first). The
        same list for the transport's life (emptied in place), so that a connection may hold
        it: while it is not empty, a message appended to it joins this turn's frame."""

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if self.texts:
            self._frame_texts()
        elif not self._queued:
            self._loop.call_soon(self.flush)
        self._queued.append(bytes(data))

    def add_text(self, text: str) -> None:
        """Queue one text message for this turn's frame (the caller checked the socket is open)."""
        if not self.texts and not self._queued:
            self._loop.call_soon(self.flush)
        self.texts.append(text)

    def _frame_texts(self) -> None:
        """The turn's messages as frames: one, or one per run of about BATCH_CHARS characters
        (a run closes once it is past them), a run of one message framed as it is."""
        texts = self.texts
        if len(texts) == 1:
            self._queued.append(FRAMES.frame(texts[0], self._loop))
        elif sum(map(len, texts)) <= BATCH_CHARS:
            self._queued.append(text_frame(batch_text(texts)))
        else:
            start, chars = 0, 0
            for index, text in enumerate(texts):
                if chars > BATCH_CHARS:
                    self._queued.append(self._run_frame(texts[start:index]))
                    start, chars = index, 0
                chars += len(text)
            self._queued.append(self._run_frame(texts[start:]))
        texts.clear()

    def _run_frame(self, texts: list[str]) -> bytes:
        if len(texts) == 1:
            return FRAMES.frame(texts[0], self._loop)
        return text_frame(batch_text(texts))

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Write what is queued now, in one call (nothing if the socket is closing)."""
        if self.texts:
            self._frame_texts()
        if not self._queued:
            return
        queued, self._queued = self._queued, []
        if not self._transport.is_closing():
            self._transport.write(queued[0] if len(queued) == 1 else b"".join(queued))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._queued = []
        self.texts.clear()
        self._transport.abort()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        queued = sum(len(data) for data in self._queued) + sum(len(text) for text in self.texts)
        return self._transport.get_write_buffer_size() + queued

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)


AT_EOF = StreamReader.at_eof.__code__
"""Where websockets' parser waits between frames (``Protocol.parse``: ``reader.at_eof()``)."""


class BatchingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (websockets' sans-I/O core) over a :class:`BatchingTransport`.

    The real transport still calls this protocol (data received, pause and resume
    writing, connection lost); only the writes are queued for the loop's turn.
    It also offers the application a synchronous send (the ASGI scope's
    ``extensions[SEND_NOW]``): the same text frame ASGI's ``websocket.send``
    makes, without a coroutine and a task switch per message, for as long as
    the socket takes data; when it does not, the caller uses ASGI's own send.
    """

    transport: BatchingTransport
    batching = False
    """The client asked for batches (:func:`wants_batches`); others get a frame per message."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        batching = BatchingTransport(cast(asyncio.Transport, transport), self.loop)
        super().connection_made(batching)

    def data_received(self, data: bytes) -> None:
        """A read of whole small text frames goes to the application as websockets and
        uvicorn would hand it on (:mod:`stud.server.ws.frames`); anything else to websockets."""
        if self._between_frames():
            payloads = whole_text_frames(data, self.conn.max_message_size)
            if payloads is not None:
                try:
                    texts = [payload.decode() for payload in payloads]
                except UnicodeDecodeError:
                    pass  # websockets and uvicorn refuse it as they do
                else:
                    for text in texts:
                        self._received_text(text)
                    return
        super().data_received(data)

    def _between_frames(self) -> bool:
        """Whether websockets holds nothing of a frame: the connection is open, no message
        is in fragments, its parser waits for a frame's first byte with nothing buffered."""
        conn = self.conn
        try:
            if (
                conn.state is not OPEN
                or conn.current_size is not None
                or conn.extensions
                or conn.debug
                or conn.parser_exc is not None
                or conn.reader.buffer
                or conn.events
            ):
                return False
        except AttributeError:  # a websockets whose internals differ: its own parser reads
            return False
        waiting = conn.parser
        while (inner := getattr(waiting, "gi_yieldfrom", None)) is not None:
            waiting = inner
        return getattr(waiting, "gi_code", None) is AT_EOF

    def _received_text(self, text: str) -> None:
        """What uvicorn does with a whole text message (``send_receive_event_to_app``)."""
        self.frames = []
        self.curr_msg_data_type = "text"
        if self.close_sent:  # the application is past closing: discarded
            return
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            if scope.get("extensions") is None:
                scope["extensions"] = {}
            self.batching = wants_batches(scope)
            scope["extensions"][SEND_NOW] = {
                "send": self.send_now,
                "batch": self.batching,
                "turn": self.transport.texts if self.batching else None,
            }

    def send_now(self, text: str) -> bool:
        """Queue one text message now if the socket is open and takes data; False if not.

        The message joins the turn's frame (:meth:`BatchingTransport.add_text`)
        while the connection is plainly open; anything else (a fragmented message
        in progress, an extension, debug logging, bytes of its own to write) goes
        through the websockets protocol object as before.
        """
        transport = self.transport
        if transport.texts:  # checked for this turn's first message, nothing written since
            # (only a batching connection has texts waiting)
            transport.add_text(text)
            return True
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        conn = self.conn
        if (
            conn.state is OPEN
            and not conn.expect_continuation_frame
            and not conn.extensions
            and not conn.debug
            and not conn.writes
        ):
            if self.batching:
                transport.add_text(text)
            else:
                transport.write(FRAMES.frame(text, self.loop))
            return True
        try:
            conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(conn.data_to_send()))
        return True


def send_now_of(scope: Any) -> Callable[[str], bool] | None:
    """The synchronous send a websocket's server offers in its ASGI scope, if any."""
    extensions = scope.get("extensions") or {}
    offer = extensions.get(SEND_NOW)
    return None if offer is None else cast(Callable[[str], bool], offer["send"])


def batches_of(scope: Any) -> bool:
    """Whether the server frames a turn's messages to this websocket together (it asked)."""
    offer = (scope.get("extensions") or {}).get(SEND_NOW)
    return bool(offer is not None and offer.get("batch"))


def turn_of(scope: Any) -> list[str] | None:
    """A batching websocket's messages of this turn (:attr:`BatchingTransport.texts`), if any.

    While the list is not empty, this turn's frame to the client has begun (its first
    message found the socket open and nothing was written since): a message appended to
    it goes out in that frame, in order, as :meth:`BatchingWebSocketProtocol.send_now`
    would have put it.
    """
    offer = (scope.get("extensions") or {}).get(SEND_NOW)
    return None if offer is None else cast("list[str] | None", offer.get("turn"))
