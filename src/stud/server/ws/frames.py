"""Whole small text frames from a client, read without websockets' general parser.

A client's message is almost always one small text frame, and a read from the
socket almost always holds whole frames: websockets' sans-I/O parser (a chain of
generators, a stream buffer, a frame object and its checks per frame) is most of
the cost of receiving an action (docs/performance.md). :func:`whole_text_frames`
reads such a read directly, and only when all of it is whole, final, masked text
frames with no reserved bit (no extension is negotiated here) of at most 64 KiB; for
anything else (a control frame, a fragment, a frame cut between reads, a bad header)
it returns None and the caller hands the read to websockets, which has seen none of
it. The bytes accepted are exactly those websockets accepts as such frames.
"""

from __future__ import annotations

from typing import Final

try:  # websockets' own unmasking, in C where it was built with it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

TEXT_FINAL_MASKED: Final = 0x81
"""First byte of a final text frame with no reserved bit (RFC 6455 5.2)."""


def whole_text_frames(data: bytes, max_size: int | None) -> list[bytes] | None:
    """The unmasked payloads of ``data`` if it is nothing but whole frames as above, each
    no longer than ``max_size``; else None (and nothing was consumed)."""
    payloads: list[bytes] = []
    end = len(data)
    at = 0
    while at < end:
        if end - at < 6 or data[at] != TEXT_FINAL_MASKED:
            return None
        second = data[at + 1]
        if not second & 0x80:  # a client's frame is masked; websockets refuses it
            return None
        length = second & 0x7F
        start = at + 2
        if length == 126:
            if end - at < 8:
                return None
            length = (data[start] << 8) | data[start + 1]
            start += 2
        elif length == 127:
            return None
        if max_size is not None and length > max_size:
            return None
        stop = start + 4 + length
        if stop > end:
            return None
        payloads.append(apply_mask(data[start + 4 : stop], data[start : start + 4]))
        at = stop
    return payloads
