"""The table layer's refusal: an error with the protocol's code.

Its own module, interpreted: :mod:`stud.table.table` is compiled with mypyc
(stud._compiled), and a compiled exception class cannot be subclassed by
interpreted code (a tournament's refusals are TableErrors too).
"""

from __future__ import annotations


class TableError(ValueError):
    """A request the table refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
