"""Where the server's bots think and how the table core runs on its event loop: the
:class:`ProcessThinker` (a bounded pool of worker processes, one per core at most)
and the :class:`ServerRuntime` (blocking calls in Starlette's thread pool, the
pages told through the :class:`~.events.Hub`). The bots themselves are the core's
(:mod:`drunter_notation.table.bots`).
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from drunter_notation.i18n import _
from drunter_notation.table.bots import HintJob, Job, Task, decide, hint_moves
from drunter_notation.table.store import JSONObject, Refused
from drunter_notation.web.events import Hub

T = TypeVar("T")


@dataclass
class ProcessThinker:
    """Bots decide, and the coach plays out, in worker processes (``workers``; default
    one per core); ``think``: the decision made there."""

    workers: int | None = None
    think: Callable[[Job], JSONObject] = decide
    pool: Executor | None = None

    @property
    def running(self) -> bool:
        return self.pool is not None

    def start(self) -> None:
        """The pool made (its processes start when first asked)."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        # not fork: the server has threads, and a forked child could inherit a held lock
        self.pool = ProcessPoolExecutor(max_workers=min(self.workers or cores, cores),
                                        mp_context=multiprocessing.get_context(method))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    async def _in_pool(self, work: Callable[[Any], T], job: Any) -> T:
        if self.pool is None:
            raise Refused(503, _("the server is shutting down"))
        return await asyncio.get_running_loop().run_in_executor(self.pool, work, job)

    async def decide(self, job: Job) -> JSONObject:
        return await self._in_pool(self.think, job)

    async def hint(self, job: HintJob) -> list[JSONObject]:
        return await self._in_pool(hint_moves, job)


@dataclass
class ServerRuntime:
    """The table core on the server's event loop."""

    hub: Hub

    async def blocking(self, work: Callable[[], T]) -> T:
        return await run_in_threadpool(work)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> Task:
        return asyncio.get_running_loop().create_task(coroutine)

    def notify(self, name: str) -> None:
        self.hub.notify(name)

    def present(self, name: str) -> set[str]:
        return self.hub.present(name)
