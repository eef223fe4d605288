"""The coach's queue: whose question is thought out next, and whose waits or is refused.

The thinker is handed at most SLOTS questions at once; the others wait here, the table
the coach served longest ago first (answered or refused; a table it never served counts
from its first question), at most WAITING of them. A question that ranks before the last
one waiting takes its place, and that one is refused (429 ``coach-busy``); one that ranks
after it is refused at once. So a client asking on many tables, or again and again on
one, pushes back its own questions, not another table's: a table that has waited longest
since the coach last served it is next. What it cannot tell apart: clients on one machine look
alike, so many tables made long ago and never helped, all asking at once, rank before a
table helped a moment ago (docs/play.md).
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from drunter_notation.i18n import _, ngettext
from drunter_notation.table.bots import HintJob, Signal, Thinker
from drunter_notation.table.store import JSONObject, Refused

SLOTS = 2  # questions the thinker computes at once: one per core of a small machine
WAITING = 6  # questions waiting at most, from all tables: with SLOTS thinking, each is answered within seconds
KEPT = 4096  # tables whose last answer is remembered (a table forgotten ranks as new)


@dataclass
class Question:
    table: str
    arrival: int
    turn: Signal  # set when the question may go to the thinker, or is refused
    refused: bool = False


@dataclass
class Coach:
    """Hands the coach's questions to ``thinker`` in the order above; ``signal`` makes the
    transport's event a waiting question is woken by."""

    thinker: Thinker
    signal: Callable[[], Signal]
    slots: int = SLOTS
    waiting_most: int = WAITING
    served: dict[str, float] = field(default_factory=dict)  # table -> when the coach last answered it
    waiting: list[Question] = field(default_factory=list)
    thinking: int = 0
    closed: bool = False
    _arrivals: itertools.count[int] = field(default_factory=itertools.count)

    async def hint(self, job: HintJob) -> list[JSONObject]:
        """The thinker's hint for ``job``, once its turn has come; 429 when the queue is full of questions
        that rank before it (or it is pushed out by one that ranks before it)."""
        await self._wait(job.game)
        try:
            return await self.thinker.hint(job)
        finally:
            self._answered(job.game)

    def close(self) -> None:
        """Every waiting question refused (503): the server is shutting down."""
        self.closed = True
        for q in self.waiting:
            q.refused = True
            q.turn.set()
        self.waiting.clear()

    def turn_away(self, table: str) -> Refused | None:
        """The refusal a question of ``table`` would meet at once (the queue full of questions that rank
        before it), told before any work is done for it, and counted as served as :meth:`hint` counts it."""
        if self.closed:
            return closing()
        if self.thinking < self.slots or len(self.waiting) < self.waiting_most:
            return None
        now = time.monotonic()
        if self.served.get(table, now) < self._rank(max(self.waiting, key=self._rank))[0]:
            return None
        self._remember(table, now)
        return busy(self.waiting_most)

    def _rank(self, q: Question) -> tuple[float, int]:
        return self.served.get(q.table, 0.0), q.arrival

    async def _wait(self, table: str) -> None:
        if self.closed:
            raise closing()
        if table not in self.served:
            self._remember(table, time.monotonic())  # a new table ranks from its first question
        if self.thinking < self.slots and not self.waiting:
            self.thinking += 1
            return
        q = Question(table, next(self._arrivals), self.signal())
        self.waiting.append(q)
        if len(self.waiting) > self.waiting_most:
            last = max(self.waiting, key=self._rank)
            self.waiting.remove(last)
            self._remember(last.table, time.monotonic())  # refused counts as served: asking on at once goes last
            last.refused = True
            last.turn.set()
        try:
            await q.turn.wait()
        except BaseException:  # no longer wanted (cancelled): its place, or its turn if given, goes on
            if q in self.waiting:
                self.waiting.remove(q)
            elif q.turn.is_set() and not q.refused:
                self.thinking -= 1
                self._next()
            raise
        if q.refused:
            raise closing() if self.closed else busy(self.waiting_most)

    def _answered(self, table: str) -> None:
        self._remember(table, time.monotonic())
        self.thinking -= 1
        self._next()

    def _next(self) -> None:
        while self.thinking < self.slots and self.waiting:
            first = min(self.waiting, key=self._rank)
            self.waiting.remove(first)
            self.thinking += 1
            first.turn.set()

    def _remember(self, table: str, when: float) -> None:
        self.served.pop(table, None)
        self.served[table] = when
        while len(self.served) > KEPT:
            del self.served[next(iter(self.served))]


def busy(most: int) -> Refused:
    return Refused(429, ngettext("the coach has {most} question waiting from all tables: ask again in a moment",
                                 "the coach has {most} questions waiting from all tables: ask again in a moment",
                                 most).format(most=most), "coach-busy", {"most": most})


def closing() -> Refused:
    return Refused(503, _("the server is shutting down"))
