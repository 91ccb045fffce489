"""REST's one error type, :class:`RestError`, and the handlers that answer every refusal.

Every refusal is ``{"detail": "...", "code": "...", "params": {...}}`` (stud.server.errors):
the REST API's own codes with the status :data:`~stud.server.errors.CODES` gives, and a
table's or tournament's refusal of a command (a :class:`~stud.table.TableError`, the
websocket's codes) with the status :data:`REFUSED_STATUS` gives.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from stud.server.errors import CODES, Params, Refusal, error_body
from stud.server.http.validation import validation_error
from stud.server.observe.logs import refused
from stud.table import TableError

REFUSED_STATUS: Final[dict[str, int]] = {
    "no_tournament": 404,
    "no_table": 404,
    "login_required": 401,
    "bad_settings": 422,
    "bad_name": 422,
    "tournament_limit": 403,
    "internal": 500,
    "unavailable": 503,
}
"""HTTP status of a refused command by its code; any other is a 409 (the state forbids it)."""


class RestError(HTTPException):
    """An HTTP error answer with its code: ``RestError("no_table", "no such table")``; the
    status is the code's (:data:`~stud.server.errors.CODES`), or ``status`` for a refused
    command's code (:meth:`refused`)."""

    def __init__(
        self,
        code: str,
        detail: str,
        params: Params | None = None,
        headers: Mapping[str, str] | None = None,
        *,
        status: int | None = None,
    ) -> None:
        if status is None and code not in CODES:
            raise KeyError(f"unknown error code {code!r}: add it to stud.server.errors.CODES")
        status = CODES[code][0] if status is None else status
        super().__init__(status, detail, dict(headers) if headers else None)
        self.code = code
        self.params: dict[str, int | str] = dict(params or {})

    @classmethod
    def of(cls, refusal: Refusal) -> RestError:
        """The HTTP answer to a :class:`~stud.server.errors.Refusal`."""
        return cls(refusal.code, str(refusal), refusal.params)

    @classmethod
    def refused(cls, error: TableError) -> RestError:
        """The HTTP answer to a command a table or tournament refused, with its own code."""
        return cls(error.code, str(error), status=REFUSED_STATUS.get(error.code, 409))


def retry_after(seconds: float) -> dict[str, str]:
    """The Retry-After header of a 429 or 503: whole seconds, at least one."""
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


def _http_code(status: int) -> RestError:
    """The code of an error the HTTP layer raised itself (an unknown address, a wrong method)."""
    if status == 404:
        return RestError("not_found", "Not Found")
    if status == 405:
        return RestError("method_not_allowed", "Method Not Allowed")
    return RestError("http_error", "the request was refused")


async def internal_error(_request: Request, _error: Exception) -> JSONResponse:
    """500 with a code, like every error (the exception itself is logged by the server)."""
    return JSONResponse(error_body("internal", "internal server error"), status_code=500)


async def http_error(_request: Request, error: Exception) -> JSONResponse:
    """Every HTTPException answered with a code: a RestError's own, else one for its status."""
    if not isinstance(error, HTTPException):  # pragma: no cover - registered for HTTPException
        raise error
    if isinstance(error, RestError):
        code, params = error.code, error.params
    else:
        code, params = _http_code(error.status_code).code, {}
    refused(code)
    return JSONResponse(
        error_body(code, error.detail, params), status_code=error.status_code, headers=error.headers
    )


def add_error_handlers(app: FastAPI) -> None:
    """Answer every refusal of ``app`` with a code: a request of the wrong shape (422), a
    :class:`RestError` or any other HTTP error, and a crash (500)."""
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
