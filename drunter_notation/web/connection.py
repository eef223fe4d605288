"""A connection's budget: uvicorn's HTTP/1.1 with a deadline for each request's head.

uvicorn closes an idle keep-alive connection, but a client that sends a request's
head a byte now and then (*slowloris*) would hold a connection, and a file
descriptor, for as long as it likes; enough of them and no player could connect.
Here the head must be whole within HEAD_SECONDS of the connection or of the last
answer; the body has its own deadline where it is read (:mod:`.endpoint`).
"""
from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_SECONDS = 10.0  # a request's head on the slowest phone arrives in well under a second


class Connection(HttpToolsProtocol):
    """One client's connection, closed when a request's head is not whole in time."""

    head_seconds = HEAD_SECONDS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()  # the head is whole: what follows is the app's to time
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        waiting = bool(self.pipeline)  # a next request whose head is whole already
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.head_seconds, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()
