"""Errors that name where a record went wrong: the file, the hand and the line."""

from __future__ import annotations


class HistoryError(ValueError):
    """A hand that cannot be read (or written), located as precisely as the reader knows."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        hand: int | None = None,
        hand_id: str | None = None,
        line: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.hand = hand
        self.hand_id = hand_id
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.hand is not None:
            where.append(f"hand {self.hand}" + (f" (#{self.hand_id})" if self.hand_id else ""))
        if self.line is not None:
            where.append(f"line {self.line}")
        return (": ".join([", ".join(where), self.message])) if where else self.message
