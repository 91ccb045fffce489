"""A websocket client as cheap per message as Python allows: the bench's load generator.

The load generator shares this 2-core machine with the room's processes,
PostgreSQL and Redis; every microsecond it spends per message is taken from
the servers it measures. ``websockets``' client (a task per connection, a
sans-I/O parser, an asyncio queue per message) costs several times what this
does. Here one :class:`asyncio.Protocol` per connection parses the server's
frames straight out of ``data_received`` (server frames are unmasked, so a
frame is a header and a slice) and hands each text message, with the moment
its bytes arrived, to a plain callback: no task, no future, no queue per
message. It speaks only what the room needs: the opening handshake (checked),
text frames out (masked, as RFC 6455 requires of a client), text, ping,
pong and close frames in. No extension is offered (the room sends
uncompressed frames: ``ws_per_message_deflate=False``).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import time
from collections.abc import Callable
from typing import cast

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0


class ProtocolError(Exception):
    """The server broke the websocket protocol (a masked frame, a bad handshake)."""


def frame(opcode: int, payload: bytes, mask: bytes) -> bytes:
    """One final client frame: ``payload`` masked with the 4-byte ``mask``."""
    if len(mask) != 4:
        raise ValueError("a websocket mask is 4 bytes")
    length = len(payload)
    if length < 126:
        head = bytes((0x80 | opcode, 0x80 | length))
    elif length < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + length.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + length.to_bytes(8, "big")
    key = (mask * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(
        length, "little"
    )
    return head + mask + masked


def accept_key(key: bytes) -> bytes:
    """The ``Sec-WebSocket-Accept`` a server must answer to ``Sec-WebSocket-Key: key``."""
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


class FrameReader:
    """Splits the server's byte stream into messages, keeping a partial frame for later.

    ``feed`` returns the complete frames in the bytes so far as (opcode,
    payload), fragments of a message joined (its first frame's opcode).
    """

    def __init__(self) -> None:
        self._rest = b""
        self._fragments: list[bytes] = []
        self._fragment_opcode = 0

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        buf = self._rest + data if self._rest else data
        end = len(buf)
        pos = 0
        out: list[tuple[int, bytes]] = []
        while end - pos >= 2:
            first, second = buf[pos], buf[pos + 1]
            if second & 0x80:
                raise ProtocolError("the server sent a masked frame")
            length = second & 0x7F
            head = 2
            if length == 126:
                if end - pos < 4:
                    break
                length = int.from_bytes(buf[pos + 2 : pos + 4], "big")
                head = 4
            elif length == 127:
                if end - pos < 10:
                    break
                length = int.from_bytes(buf[pos + 2 : pos + 10], "big")
                head = 10
            if end - pos - head < length:
                break
            payload = buf[pos + head : pos + head + length]
            pos += head + length
            opcode = first & 0x0F
            final = first & 0x80
            if opcode >= CLOSE:  # control frames are never fragmented, may come between fragments
                out.append((opcode, payload))
            elif opcode == CONTINUATION:
                self._fragments.append(payload)
                if final:
                    out.append((self._fragment_opcode, b"".join(self._fragments)))
                    self._fragments = []
            elif final:
                out.append((opcode, payload))
            else:
                self._fragment_opcode, self._fragments = opcode, [payload]
        self._rest = buf[pos:]
        return out


class LeanSocket(asyncio.Protocol):
    """One websocket connection; each text message goes to ``on_text(payload, arrived)``.

    ``arrived`` is ``time.monotonic()`` when the bytes carrying the message were
    handed to the protocol, the same for every message in one read.
    """

    def __init__(
        self,
        host: str,
        port: int,
        cookie: str | None,
        on_text: Callable[[bytes, float], None],
        on_lost: Callable[[], None],
        path: str = "/ws?batch=1",
    ) -> None:
        self._key = base64.b64encode(os.urandom(16))
        cookie_line = f"Cookie: stud_session={cookie}\r\n" if cookie else ""
        self._request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self._key.decode()}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{cookie_line}\r\n"
        ).encode()
        self._on_text = on_text
        self._on_lost = on_lost
        self._transport: asyncio.Transport | None = None
        self._handshake = b""
        self._reader = FrameReader()
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's TCP transport is not an asyncio.Transport subclass, but has its methods.
        self._transport = cast(asyncio.Transport, transport)
        self._transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        if not self.opened.done():
            data = self._read_handshake(data)
            if not data:
                return
        arrived = time.monotonic()
        try:
            messages = self._reader.feed(data)
        except ProtocolError as error:
            self._fail(error)
            return
        on_text = self._on_text
        for opcode, payload in messages:
            if opcode in (TEXT, BINARY):
                on_text(payload, arrived)
            elif opcode == PING:
                self._write(PONG, payload)
            elif opcode == CLOSE:
                self._write(CLOSE, payload[:2])
                self.close()

    def _read_handshake(self, data: bytes) -> bytes:
        """Consume the server's handshake; the bytes after it (frames already sent)."""
        self._handshake += data
        head, sep, rest = self._handshake.partition(b"\r\n\r\n")
        if not sep:
            if len(self._handshake) > 65536:
                self._fail(ProtocolError("no end to the handshake's headers"))
            return b""
        lines = head.split(b"\r\n")
        status = lines[0].split(b" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if len(status) < 2 or status[1] != b"101":
            self._fail(ProtocolError(f"handshake refused: {lines[0].decode(errors='replace')}"))
            return b""
        if headers.get(b"sec-websocket-accept") != accept_key(self._key):
            self._fail(ProtocolError("wrong Sec-WebSocket-Accept"))
            return b""
        self._handshake = b""
        self.opened.set_result(None)
        return rest

    def send_text(self, text: bytes) -> bool:
        """Send one text message; False if the connection is closed."""
        return self._write(TEXT, text)

    def _write(self, opcode: int, payload: bytes) -> bool:
        if self.closed or self._transport is None or self._transport.is_closing():
            return False
        self._transport.write(frame(opcode, payload, os.urandom(4)))
        return True

    def close(self) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.close()

    def _fail(self, error: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(error)
        self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        was_open = self.opened.done() and self.opened.exception() is None
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed:
            self.closed = True
            if was_open:
                self._on_lost()


async def connect(
    host: str,
    port: int,
    cookie: str | None,
    on_text: Callable[[bytes, float], None],
    on_lost: Callable[[], None],
    timeout: float = 60.0,
) -> LeanSocket:
    """An open :class:`LeanSocket` to ``ws://host:port/ws`` (raises if the handshake fails)."""
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_connection(
        lambda: LeanSocket(host, port, cookie, on_text, on_lost), host, port
    )
    await asyncio.wait_for(asyncio.shield(protocol.opened), timeout)
    return protocol
