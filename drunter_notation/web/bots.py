"""Where the server's bots think and how the table core runs on its event loop: the
:class:`ProcessThinker` (worker processes, one per core at most, shared fairly among the tables)
and the :class:`ServerRuntime` (blocking calls in Starlette's thread pool, the
pages told through the :class:`~.events.Hub`). The bots themselves are the core's
(:mod:`drunter_notation.table.bots`).
"""
from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from drunter_notation.bots.ismcts import SIMS, spec
from drunter_notation.i18n import _
from drunter_notation.table.bots import HintJob, Job, Task, decide, hint_moves
from drunter_notation.table.store import JSONObject, Refused
from drunter_notation.web.events import Hub

T = TypeVar("T")


QUICK_SIMS = SIMS  # a search this short (the medium strength's) is quick work
HALF_LIFE = 20.0  # seconds after which a table's use of the workers counts half in who goes next
NICE = 10  # the workers' niceness: the server's own threads answer first
HEAVY_NICE = 15  # a long search's worker yields the cores to quick work (a hint, a light table) beside it
PER_TABLE = 4  # a game's calls in the thread pool at once (its lock lets one work at a time anyway)


def _worker(conn: Connection, think: Callable[[Job], JSONObject], nice: int = NICE) -> None:
    """A worker process: one job after another from ``conn``, each answer sent back,
    at niceness ``nice``. Ctrl+C and SIGTERM are the server's to handle (it kills this
    process), not this one's; without its server, it ends at its next job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(nice)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer: tuple[str, Any] = ("ok", think(job) if isinstance(job, Job) else hint_moves(job))
        except Refused as e:
            answer = ("refused", (e.status, e.reason))
        except Exception as e:  # the parent logs it; the worker goes on
            answer = ("failed", f"{type(e).__name__}: {e}"[:300])
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


@dataclass
class Item:
    """One computation asked for: a bot's decision or a coach's hint, for ``table``."""

    table: str
    job: Job | HintJob
    future: asyncio.Future[Any]
    hint: bool

    @property
    def quick(self) -> bool:
        """A hint, or a decision of a bot that searches little (at most the medium strength's budget, no time)."""
        if not isinstance(self.job, Job):
            return True
        name, params = spec(self.job.spec)
        sims = params.get("sims", 0 if name != "ismcts" else SIMS)
        return isinstance(sims, int) and sims <= QUICK_SIMS and "time" not in params


@dataclass
class Slot:
    """One worker process and the item it computes now."""

    process: BaseProcess
    conn: Connection
    quick: bool = False  # the lane kept for quick work: a short search or a hint never waits behind a long one
    item: Item | None = None
    started: float = 0.0


@dataclass
class ProcessThinker:
    """Bots decide, and the coach plays out, in worker processes (``workers``; default
    one per core, and one more kept for quick work: a hint, a short search), shared
    fairly: a free worker takes a waiting hint first (a person waits for it), else the
    next decision of the table that has used the workers least lately (its use halves
    every HALF_LIFE seconds); quick work never waits behind long searches, so a light
    table keeps its pace beside any number of heavy ones. A computation no longer wanted (its coroutine
    cancelled: a pause, an undo, a take-back, the end) is dropped from the queue or,
    when a worker is on it already, the worker is killed and another started.
    ``think``: the decision made in a worker."""

    workers: int | None = None
    think: Callable[[Job], JSONObject] = decide
    slots: list[Slot] = field(default_factory=list)
    waiting: list[Item] = field(default_factory=list)
    used: dict[str, tuple[float, float]] = field(default_factory=dict)  # table -> (use, when last counted)
    started: bool = False
    killed: int = 0  # workers killed because what they computed was no longer wanted

    @property
    def running(self) -> bool:
        return self.started

    @property
    def busy(self) -> int:
        """Computations running or waiting now."""
        return len(self.waiting) + sum(s.item is not None for s in self.slots)

    def start(self) -> None:
        """Workers start when first needed."""
        self.started = True

    def close(self) -> None:
        """Every worker ended at once; whoever waits for one is told the server is shutting down."""
        self.started = False
        for item in [*self.waiting, *(s.item for s in self.slots if s.item is not None)]:
            if not item.future.done():
                item.future.set_exception(Refused(503, _("the server is shutting down")))
        self.waiting.clear()
        for slot in list(self.slots):
            self._end(slot)

    async def decide(self, job: Job) -> JSONObject:
        answer: JSONObject = await self._ask(job.game, job, hint=False)
        return answer

    async def hint(self, job: HintJob) -> list[JSONObject]:
        moves: list[JSONObject] = await self._ask(job.game, job, hint=True)
        return moves

    async def _ask(self, table: str, job: Job | HintJob, *, hint: bool) -> Any:
        if not self.started:
            raise Refused(503, _("the server is shutting down"))
        item = Item(table, job, asyncio.get_running_loop().create_future(), hint)
        item.future.add_done_callback(lambda f: self._done(item))
        self.waiting.append(item)
        self._pump()
        return await item.future

    def _use(self, table: str, now: float) -> float:
        use, when = self.used.get(table, (0.0, now))
        return float(use * 0.5 ** ((now - when) / HALF_LIFE))

    def _pump(self) -> None:
        """Free workers take the next items: hints first, then the table that used the workers least lately;
        the quick lane takes only quick items."""
        self.waiting = [i for i in self.waiting if not i.future.done()]
        while self.waiting and self.started:
            now = time.monotonic()
            item, slot = None, None
            for each in sorted(self.waiting, key=lambda i: (not i.hint, self._use(i.table, now))):
                slot = self._free(each.quick)
                if slot is not None:
                    item = each
                    break
            if item is None or slot is None:
                return
            self.waiting.remove(item)
            slot.item, slot.started = item, now
            try:
                slot.conn.send(item.job)
            except (OSError, ValueError):  # the worker died: another takes the item
                slot.item = None
                self.waiting.insert(0, item)
                self._end(slot)

    def _size(self) -> int:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        return max(1, min(self.workers or cores, cores))

    def _free(self, quick: bool) -> Slot | None:
        """A worker free for an item, started if need be: a quick one tries the quick lane (the less nice)
        first, then the others; a long one only the others."""
        for lane in (True, False) if quick else (False,):
            slot = next((s for s in self.slots if s.item is None and s.quick == lane), None)
            if slot is None and sum(s.quick == lane for s in self.slots) < (1 if lane else self._size()):
                slot = self._spawn(lane)
            if slot is not None:
                return slot
        return None

    def _spawn(self, quick: bool) -> Slot:
        # not fork: the server has threads, and a forked child could inherit a held lock
        context = multiprocessing.get_context("forkserver") if "forkserver" in multiprocessing.get_all_start_methods() \
            else multiprocessing.get_context("spawn")
        ours, theirs = multiprocessing.Pipe()
        process = context.Process(target=_worker, args=(theirs, self.think, NICE if quick else HEAVY_NICE),
                                  name="drunter-bot", daemon=True)
        process.start()
        theirs.close()
        slot = Slot(process, ours, quick)
        self.slots.append(slot)
        asyncio.get_running_loop().add_reader(ours.fileno(), self._answered, slot)
        return slot

    def _answered(self, slot: Slot) -> None:
        """A worker answered (or died: then its item is failed, and another worker starts for what waits)."""
        item = slot.item
        try:
            kind, value = slot.conn.recv()
        except (EOFError, OSError):
            self._end(slot)
            if item is not None and not item.future.done():
                item.future.set_exception(Refused(503, _("the server is shutting down") if not self.started else
                                                  _("a worker process of the bots ended; ask again")))
            self._pump()
            return
        slot.item = None
        if item is not None:
            now = time.monotonic()
            self.used[item.table] = (self._use(item.table, now) + now - slot.started, now)
            if not item.future.done():
                if kind == "ok":
                    item.future.set_result(value)
                elif kind == "refused":
                    item.future.set_exception(Refused(*value))
                else:
                    item.future.set_exception(RuntimeError(value))
        self._pump()

    def _done(self, item: Item) -> None:
        """An item's future is settled; cancelled while a worker computes it, that worker is killed."""
        if not item.future.cancelled():
            return
        slot = next((s for s in self.slots if s.item is item), None)
        if slot is not None:
            self.killed += 1
            self._end(slot)
            self._pump()

    def _end(self, slot: Slot) -> None:
        """The worker killed (a search cannot be interrupted otherwise) and forgotten."""
        if slot in self.slots:
            self.slots.remove(slot)
        with contextlib.suppress(ValueError, RuntimeError):  # the loop is closed already
            asyncio.get_running_loop().remove_reader(slot.conn.fileno())
        slot.item = None
        with contextlib.suppress(OSError, ValueError):
            slot.process.kill()
        slot.conn.close()
        slot.process.join(1)


@dataclass
class ServerRuntime:
    """The table core on the server's event loop. A game's calls take at most PER_TABLE of the
    thread pool's threads at once; its others wait on the loop, so a flood of requests on one
    game (each waiting for its lock) leaves the threads free for every other game."""

    hub: Hub
    gates: dict[str, tuple[asyncio.Semaphore, int]] = field(default_factory=dict)  # game -> its gate, its callers

    async def blocking(self, work: Callable[[], T], table: str | None = None) -> T:
        if table is None:
            return await run_in_threadpool(work)
        gate, callers = self.gates.get(table) or (asyncio.Semaphore(PER_TABLE), 0)
        self.gates[table] = (gate, callers + 1)
        try:
            async with gate:
                return await run_in_threadpool(work)
        finally:
            gate, callers = self.gates[table]
            if callers == 1:
                del self.gates[table]
            else:
                self.gates[table] = (gate, callers - 1)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def signal(self) -> asyncio.Event:
        return asyncio.Event()

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> Task:
        return asyncio.get_running_loop().create_task(coroutine)

    def notify(self, name: str) -> None:
        self.hub.notify(name)

    def present(self, name: str) -> set[str]:
        return self.hub.present(name)
