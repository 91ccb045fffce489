"""A refused request body answers 422 with words, whatever text it carried.

FastAPI's own 422 echoes the offending input back; when that input is
invalid Unicode (JSON's ``"\\ud800"``, a lone surrogate) the answer cannot be
encoded and the client got a 500 instead. Here each error keeps its place and
message, and any text that cannot be written as UTF-8 is shown escaped. The answer
carries the code ``invalid_input`` (stud.server.errors) beside the list.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from stud.server.errors import error_body
from stud.server.observe.logs import refused


def encodable(value: Any) -> Any:
    """``value`` (a JSON-like value) with every string made writable as UTF-8."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {encodable(str(k)): encodable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encodable(v) for v in value]
    if value is None or isinstance(value, bool | int | float):
        return value
    return encodable(str(value))


async def validation_error(_request: Request, error: Exception) -> JSONResponse:
    """422 ``{"detail": [{"loc", "msg", "type"}, ...], "code": "invalid_input"}``: the shape
    FastAPI documents, and the code every REST error carries."""
    errors = error.errors() if isinstance(error, RequestValidationError) else []
    detail = [
        {"loc": encodable(list(e.get("loc", ()))), "msg": encodable(e.get("msg", "")),
         "type": encodable(e.get("type", ""))}
        for e in errors
    ]  # fmt: skip
    refused("invalid_input")
    return JSONResponse(error_body("invalid_input", detail), status_code=422)
