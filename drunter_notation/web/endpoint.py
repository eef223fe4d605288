"""How the server carries a route of the table core (:class:`~drunter_notation.table.core.Entry`):
the request's JSON body read (at most LIMIT bytes), the game's id and the seat's token
taken from the path and the header, the core's :class:`~drunter_notation.table.answer.Reply`
answered as a response.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from drunter_notation.i18n import _, ngettext
from drunter_notation.table.answer import Reply, json_object
from drunter_notation.table.core import Call, Entry
from drunter_notation.table.store import JSONObject, Refused

LIMIT = 64 * 1024  # bytes in a request body
BODY_SECONDS = 10  # for them to arrive, from the end of the request's head
SEAT_HEADER = "x-drunter-seat"

Handler = Callable[[Request], Awaitable[Response]]


def handler(entry: Entry) -> Handler:
    """The Starlette handler of one route of the core."""
    async def handle(request: Request) -> Response:
        body = await read_body(request) if entry.body and request.method == "POST" else {}
        name = request.path_params.get("name")
        call = Call(name if isinstance(name, str) else None, request.method, body,
                    request.headers.get(SEAT_HEADER), str(request.base_url))
        return response(await entry.work(call))
    return handle


def response(reply: Reply) -> Response:
    if isinstance(reply.body, str):
        headers = {"ETag": f'"{reply.etag}"'} if reply.etag else None
        return Response(reply.body, reply.status, media_type=reply.media, headers=headers)
    return JSONResponse(reply.body, reply.status)


async def read_body(request: Request) -> JSONObject:
    """The request's JSON object, at most LIMIT bytes (refused as soon as it grows past)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > LIMIT):
        raise Refused(413, _("the body is over {size} KB").format(size=LIMIT // 1024))
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_SECONDS):  # a body sent a byte now and then holds nothing for long
            async for chunk in request.stream():
                size += len(chunk)
                if size > LIMIT:
                    raise Refused(413, _("the body is over {size} KB").format(size=LIMIT // 1024))
                chunks.append(chunk)
    except ClientDisconnect:  # gone before its body ended: nothing is done, and nobody is there to be told
        raise Refused(400, _("the body ended before it was whole: the device went away")) from None
    except TimeoutError:
        raise Refused(408, ngettext("the body was not whole after {seconds} second; send it again",
                                    "the body was not whole after {seconds} seconds; send it again",
                                    BODY_SECONDS).format(seconds=BODY_SECONDS)) from None
    return json_object(b"".join(chunks))
