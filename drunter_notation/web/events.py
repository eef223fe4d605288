"""Pushed updates for ``drunter play``: Server-Sent Events, one stream per open page.

A change to a game (a move, a ballot laid, ...) bumps that game's counter and wakes
its streams; each sends one ``change`` event and the page fetches its own view, so a
stream never carries anything a page could not fetch anyway. Streams are bounded
(per game and in all) and all end when the server shuts down. When all are taken, a
page of a game with fewer streams ends the oldest stream of the game with the most
(that page asks again, and fetches its view every few seconds while refused), so pages
opened by one client on one game cannot take every other game's.
"""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.responses import StreamingResponse

from drunter_notation.i18n import _
from drunter_notation.table.store import Refused

MAX_PER_GAME = 12  # a host, four seats and a few spectators
MAX_TOTAL = 64
HEARTBEAT = 15.0  # seconds: a comment line, so a dead connection is noticed and proxies keep it open


class Hub:
    """The open streams and each game's change counter. Used from the event loop;
    :meth:`notify` also from worker threads."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.versions: dict[str, int] = {}
        self.waiters: dict[str, dict[asyncio.Event, str | None]] = {}  # game -> stream -> its seat (None: host)
        self.ended: set[asyncio.Event] = set()  # streams told to end to make room for another game's
        self.closed = False

    def notify(self, name: str) -> None:
        """Tell every stream of game ``name`` that it changed (from any thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._bump, name)
        except RuntimeError:  # the loop is closing: no stream is left to tell
            pass

    def _bump(self, name: str) -> None:
        self.versions[name] = self.versions.get(name, 0) + 1
        for event in self.waiters.get(name, ()):
            event.set()

    def close(self) -> None:
        """End every stream (the server is shutting down). Call on the event loop."""
        self.closed = True
        for events in self.waiters.values():
            for event in events:
                event.set()

    def count(self, name: str | None = None) -> int:
        """Streams open and not told to end: of game ``name``, or in all."""
        games = [self.waiters.get(name, {})] if name is not None else list(self.waiters.values())
        return sum(len(s) for s in games) - sum(e in s for s in games for e in self.ended)

    def _make_room(self, name: str) -> bool:
        """All streams taken: the oldest of the game with the most told to end, if that game has more
        than ``name`` would have with one more; whether room was made."""
        fullest = max(self.waiters, key=self.count)
        if self.count(fullest) <= self.count(name) + 1:
            return False
        oldest = next(e for e in self.waiters[fullest] if e not in self.ended)
        self.ended.add(oldest)
        oldest.set()
        return True

    def present(self, name: str) -> set[str]:
        """The seats of game ``name`` with a page open now."""
        return {who for who in self.waiters.get(name, {}).values() if who is not None}

    def stream(self, name: str, who: str | None = None) -> StreamingResponse:
        """The event stream of game ``name`` for the seat ``who`` (None: the host's
        page); 503 when too many are open. A seat coming or going is a change too."""
        self.loop = asyncio.get_running_loop()
        if self.closed:
            raise Refused(503, _("the server is shutting down"))
        if self.count(name) >= MAX_PER_GAME or (self.count() >= MAX_TOTAL and not self._make_room(name)):
            raise Refused(503, _("too many open pages (at most {per_game} per game, {total} in all); close one "
                                 "and reload").format(per_game=MAX_PER_GAME, total=MAX_TOTAL))
        wake = asyncio.Event()
        self.waiters.setdefault(name, {})[wake] = who
        if who is not None:
            self._bump(name)

        async def events() -> AsyncIterator[str]:
            try:
                seen = self.versions.get(name, 0)
                yield f"retry: 1000\nevent: change\ndata: {seen}\n\n"  # the page fetches its view once at the start
                while not self.closed:
                    try:
                        await asyncio.wait_for(wake.wait(), HEARTBEAT)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    wake.clear()
                    if self.closed or wake in self.ended:
                        break  # close() or _make_room() set it while this stream awaited
                    seen = self.versions.get(name, 0)
                    yield f"event: change\ndata: {seen}\n\n"
            finally:
                self.ended.discard(wake)
                waiting = self.waiters.get(name)
                if waiting is not None:
                    waiting.pop(wake, None)
                    if not waiting:
                        del self.waiters[name]
                if who is not None and not self.closed:
                    self._bump(name)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
