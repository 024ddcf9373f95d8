"""Every error answers as the app's own refusals do (``detail``: ``{"id", "params", "rule"}``,
see :mod:`pickomino.web.errors`), whoever raised it: Starlette's (an address with no route:
``no_page``), a bug's (``server_error``); a request of the wrong shape is a 422 with
FastAPI's list of problems (``type``, ``loc``, ``ctx``), without the values sent."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi import HTTPException as FastAPIHTTPException
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from pickomino.web.errors import Refused


def add_refusal_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_refusal)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)


async def _invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    """422 with what is wrong where (FastAPI's form) but not the values sent: they may be
    huge, or not JSON at all (NaN and Infinity, which Python's parser reads, cannot be sent
    back: the default answer failed with a 500 and a traceback)."""
    problems = [
        {key: value for key, value in problem.items() if key != "input"}
        for problem in error.errors()
    ]
    return JSONResponse({"detail": jsonable_encoder(problems)}, status_code=422)


async def _http_refusal(request: Request, error: HTTPException) -> Response:
    """Starlette's own refusals (no route for the address, a method it does not take)
    carry English words: they become ids like the app's own (those pass as they are)."""
    if isinstance(error.detail, str):
        refusal = (
            Refused("no_page") if error.status_code == 404
            else Refused("method_not_allowed") if error.status_code == 405
            else Refused("http_status", status=error.status_code)
        )  # fmt: skip
        error = FastAPIHTTPException(error.status_code, refusal.to_dict(), error.headers)
    return await http_exception_handler(request, error)


async def _server_error(_request: Request, _error: Exception) -> JSONResponse:
    """A bug's 500 as an id too (the error itself is logged, and goes to no client)."""
    return JSONResponse({"detail": Refused("server_error").to_dict()}, status_code=500)
