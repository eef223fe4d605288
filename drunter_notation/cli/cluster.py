"""``--dask ADDRESS``: a command's per-record or per-game work on a Dask cluster.

The client (this process) reads the inputs, ships them as values (no shared file
system) in batches, and gets the results back in the order given, so the output is
byte for byte that of ``--jobs 1``. At most :data:`IN_FLIGHT_PER_THREAD` batches per
worker thread are out at a time, so the client's memory stays flat however many
records there are. A worker lost mid-run costs nothing (Dask runs its batches again);
a scheduler that cannot be reached, or is lost mid-run, is one line and exit status 2.
Sizes and costs: docs/scale.md.
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar

import click

from drunter_notation import i18n
from drunter_notation.cli import YOUNG_THRESHOLD
from drunter_notation.cli.common import IN_WEBASSEMBLY, command_name
from drunter_notation.errors import DnError, printable
from drunter_notation.files import os_reason, read_record
from drunter_notation.i18n import N_, _

T = TypeVar("T")
R = TypeVar("R")

DASK_TIMEOUT = 5  # seconds to reach a Dask scheduler: a wrong address fails fast
# A batch's work on a worker, in seconds: a task costs the scheduler and the network
# about 5 ms (measured, docs/scale.md), so this keeps them at 2 %, and is short enough
# that the workers finish together and the progress bar moves.
TARGET_SECONDS = 0.25
FIRST_BATCH = 2  # items in the first batches, before any has been timed
MAX_BATCH = 2000  # items in a batch, however cheap each is
MAX_BATCH_BYTES = 8 << 20  # bytes of input in a batch (records are at most files.MAX_RECORD_BYTES each)
IN_FLIGHT_PER_THREAD = 2  # batches out per worker thread: one running, one waiting, none idle
WORKERS_AGAIN = 2.0  # seconds between two counts of the workers' threads
PROGRESS_DELAY = 0.5  # seconds before a bar appears: short runs never show one

dask_option = click.option(
    "--dask", "dask_address", metavar="ADDRESS",
    help=N_("Run the work on the Dask cluster whose scheduler is at ADDRESS (host:port), in batches; the "
            "output is the same as without it (pip install 'drunter-notation[dask]'; docs/scale.md)."))


@dataclass(frozen=True)
class Ready(Generic[R]):
    """An item whose result the client already has (a record it could not read):
    it travels in its batch, so the results stay in order."""

    result: R


class ClusterLost(click.ClickException):
    """The scheduler went away mid-run: one line, exit status 2."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(message)
        self.where = command_name()  # while the command runs: gone by the time it is shown

    def show(self, file: Any = None) -> None:
        click.echo(printable(_("{command}: error: {message}").format(command=self.where, message=self.message)),
                   err=True)


def unreachable(address: str, reason: str) -> click.UsageError:
    return click.UsageError(_("cannot reach the Dask scheduler at {address} within {seconds} s: {reason}").format(
        address=address, seconds=DASK_TIMEOUT, reason=reason))


def knock(address: str) -> None:
    """A TCP scheduler (``tcp://`` or ``tls://HOST:PORT``, or plain ``HOST:PORT``)
    that refuses, does not accept, or accepts and says nothing (over plain TCP) is
    known in at most DASK_TIMEOUT seconds each, before
    Dask is even imported (its client retries a refused connection until its timeout)."""
    scheme, _sep, rest = address.rpartition("://")
    if scheme not in ("", "tcp", "tls"):
        return  # another transport: Dask's own timeout applies
    host, _sep, port = rest.rpartition(":")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536) or not host.strip("[]"):
        raise click.UsageError(_("--dask {address}: give the scheduler's address as HOST:PORT (tcp:// or tls:// "
                                 "before it, if you like), the port 1 to 65535").format(address=address))
    import socket  # here, as logging and concurrent.futures below: a run without --dask does not load them

    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=DASK_TIMEOUT) as sock:
            if scheme != "tls":  # a scheduler speaks first (its handshake); Dask's client would wait for it forever
                sock.recv(1)
    except TimeoutError:
        raise unreachable(address, _("something accepted the connection but did not answer as a Dask "
                                     "scheduler does")) from None
    except socket.gaierror:  # the resolver's own words are English
        raise unreachable(address, _("the host name is not known")) from None
    except (OSError, ValueError, OverflowError) as e:
        raise unreachable(address, os_reason(e)) from None


def connect(address: str, stack: contextlib.ExitStack) -> Any:
    """A Dask client of the scheduler at ``address``, closed with ``stack``; Dask's
    own log lines are kept off stderr (every failure is said here, in one line)."""
    knock(address)
    try:
        import dask
        from dask.distributed import Client
    except ImportError:
        raise click.UsageError(_("--dask needs Dask: pip install 'drunter-notation[dask]'")) from None
    # the client's comm keeps its last 1,000 messages for debugging, batches of records
    # included: up to a gigabyte, and the memory would not stay flat
    dask.config.set({"distributed.admin.low-level-log-length": 0})
    import logging

    for name in ["asyncio", *logging.root.manager.loggerDict]:  # Dask's and tornado's records end here, not on stderr
        if name.split(".")[0] in ("distributed", "tornado", "asyncio", "bokeh"):
            logger = logging.getLogger(name)
            logger.handlers, logger.propagate = [logging.NullHandler()], False
    try:
        return stack.enter_context(Client(address, timeout=DASK_TIMEOUT))  # type: ignore[no-untyped-call]  # not annotated
    except Exception as e:  # Dask's own words are English and name its internals: said here instead
        reason = (_("it did not answer in time") if isinstance(e, OSError) else  # a TimeoutError is one too
                  _("Dask cannot read the address"))
        raise unreachable(address, reason) from None


def run_batch(fn: Callable[[T], R], batch: list[T | Ready[R]], lang: str) -> tuple[list[R], float]:
    """On a worker: ``fn`` over the batch in the client's language; the results and
    the seconds they took (the client sizes the next batches by it)."""
    if gc.get_threshold()[0] < YOUNG_THRESHOLD:  # the worker collects as the CLI does: about 10 % faster
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD)
    start = time.perf_counter()
    with i18n.using(lang):
        out = [x.result if isinstance(x, Ready) else fn(x) for x in batch]
    return out, time.perf_counter() - start


def weight(item: Any) -> int:
    """The bytes of input an item carries: its ``data`` (a validate job), or the
    bytes among its values (an analyze item, ``(path, data)``)."""
    values = item if isinstance(item, tuple) else (getattr(item, "data", None),)
    return sum(len(v) for v in values if isinstance(v, bytes))


def with_bytes(jobs: Iterable[Any], judge: Callable[[Any], R]) -> Iterator[Any]:
    """Each job (a dataclass with ``path`` and ``data``) with its file's bytes read
    here, one at a time as the batches go out; a file that cannot be read is judged
    here (``judge`` reads it again and says why) and travels as :class:`Ready`."""
    for job in jobs:
        if job.data is not None:
            yield job
            continue
        try:
            yield dataclasses.replace(job, data=read_record(job.path))
        except DnError:
            yield Ready(judge(job))


def run(client: Any, fn: Callable[[T], R], items: Iterable[T | Ready[R]], address: str,
        done: Callable[[int], None] | None = None) -> Iterator[R]:
    """``fn`` over ``items`` on the cluster, in batches of about TARGET_SECONDS of
    work; the results in the order of ``items``. Items are taken from the iterable
    only as batches go out, and at most IN_FLIGHT_PER_THREAD batches per worker
    thread are out or waiting to be yielded. ``done(n)``: n more items finished."""
    from concurrent.futures import CancelledError

    from dask.distributed import as_completed
    from distributed import KilledWorker

    def lost(e: BaseException) -> ClusterLost:
        # Dask's own words name its internals (a comm pool, a task key) and are English: said here instead
        reason = (_("a batch died with every worker that ran it") if isinstance(e, KilledWorker) else
                  _("it did not answer in time") if isinstance(e, TimeoutError) else
                  _("the connection to it was lost"))
        return ClusterLost(_("lost the Dask scheduler at {address} mid-run: {reason}").format(
            address=address, reason=reason))

    def threads() -> int:  # asked again now and then: an adaptive cluster's workers come and go
        try:
            return max(1, int(sum(client.nthreads().values())))
        except (OSError, TimeoutError) as e:
            raise lost(e) from None

    window, asked = IN_FLIGHT_PER_THREAD * threads(), time.monotonic()
    source, lang, size = iter(items), i18n.language(), FIRST_BATCH
    order: dict[Any, int] = {}  # future -> its batch's place
    finished: dict[int, list[R]] = {}
    sent = shown = 0
    pending = as_completed()  # type: ignore[no-untyped-call]  # distributed's as_completed is not annotated

    def send() -> bool:
        nonlocal sent
        batch, load = [], 0
        for item in islice(source, size):
            batch.append(item)
            load += weight(item)
            if load >= MAX_BATCH_BYTES:
                break
        if not batch:
            return False
        future = client.submit(run_batch, fn, batch, lang, pure=False)
        order[future] = sent
        sent += 1
        pending.add(future)  # type: ignore[no-untyped-call]  # as above
        return True

    more = True
    while more and sent - shown < window:
        more = send()
    for future in pending:
        try:
            results, seconds = future.result()
        # the scheduler's comm, or every worker, gone
        except (CancelledError, KilledWorker, OSError, TimeoutError) as e:
            raise lost(e) from None
        finished[order.pop(future)] = results
        if done is not None:
            done(len(results))
        if results:  # the next batches: about TARGET_SECONDS of work at the rate just measured
            size = max(1, min(MAX_BATCH, round(TARGET_SECONDS * len(results) / max(seconds, 1e-6))))
        while shown in finished:
            yield from finished.pop(shown)
            shown += 1
        if time.monotonic() - asked > WORKERS_AGAIN:
            window, asked = IN_FLIGHT_PER_THREAD * threads(), time.monotonic()
        while more and sent - shown < window:
            more = send()


def on_cluster(address: str, fn: Callable[[T], R], items: Iterable[T | Ready[R]], total: int = 0,
               unit: str | None = None) -> Iterator[R]:
    """:func:`run` on the scheduler at ``address``; with ``unit``, a progress bar on a
    terminal counts the ``total`` items as they finish."""
    if IN_WEBASSEMBLY:
        click.echo(printable(_("{command}: warning: this Python cannot reach a Dask cluster (WebAssembly): --dask "
                               "{address} runs in this process").format(command=command_name(), address=address)),
                   err=True)
        yield from (x.result if isinstance(x, Ready) else fn(x) for x in items)
        return
    with contextlib.ExitStack() as stack:
        client = connect(address, stack)
        bar = progress(total, unit, stack) if unit else None
        yield from run(client, fn, items, address, None if bar is None else bar.update)


def progress(total: int, unit: str, stack: contextlib.ExitStack) -> Any:
    """A tqdm bar on stderr, closed with ``stack``, when stderr is a terminal and
    after PROGRESS_DELAY; else None (and tqdm is not imported)."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return stack.enter_context(tqdm(total=total, unit=unit, file=sys.stderr, delay=PROGRESS_DELAY, leave=False,
                                    dynamic_ncols=True))
