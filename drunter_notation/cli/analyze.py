"""``drunter analyze``: who protects which building, win chances, turning points."""
from __future__ import annotations

import contextlib
import functools
import json
import socket
import sys
from concurrent.futures import ProcessPoolExecutor

import click

from drunter_notation.analysis import Settings, analyze_bytes, analyze_record
from drunter_notation.bots import BOTS
from drunter_notation.cli.common import pool_size, record_paths
from drunter_notation.errors import DnError, json_safe, printable, printable_lines
from drunter_notation.files import read_record
from drunter_notation.notation.parser import parse_bytes


DASK_TIMEOUT = 5  # seconds to reach a Dask scheduler: a wrong address fails fast


def render_text(r: dict) -> str:
    """The analysis as a table per turn (each player's most probable card, the win
    chances), then the end, the evidence and the turning points."""
    players = r["players"]
    width = max(len(k) for b in r["turns"][0]["beliefs"].values() for k in b) + 5
    win = r["turns"][0]["win"] is not None
    lines = [f"{r['file']}: {len(r['turns']) - 1} turns, {r['variant']} game ({r['rules']}, {r['board']}); "
             f"each player's most probable card after every turn (model: docs/analysis.md)"
             + (f"; win chances from {r['playouts']} {r['policy']} playouts a position" if win else "")]
    head = f"{'turn':>4}  {'move':<22}" + "".join(f"{printable(p, width - 1):<{width}}" for p in players)
    lines.append(head + ("| win % " + " ".join(f"{printable(p, 5):>5}" for p in players) if win else ""))
    for e in r["turns"]:
        move = "" if e["move"] is None else f"{e['player']} {e['move']}" + (" (no)" if e.get("vote") ==
                                                                           "rejected" else "")
        cells = []
        for p in players:
            card, prob = max(e["beliefs"][p].items(), key=lambda kv: kv[1])
            cells.append(f"{card} {prob * 100:3.0f}".ljust(width))
        row = f"{e['turn']:>4}  {printable(move, 22):<22}" + "".join(cells)
        if win:
            row += "|       " + " ".join(f"{e['win'][p] * 100:5.0f}" for p in players)
        lines.append(row.rstrip())
    final = r["final"]
    truth = final["truth"]
    lines.append("")
    lines.append("At the end, the most probable cards (%)" + (", * the card revealed:" if truth else ":"))
    for p in players:
        ranked = sorted(final["beliefs"][p].items(), key=lambda kv: -kv[1])[:4]
        shown = "  ".join(f"{c}{'*' if truth and truth[p] == c else ''} {x * 100:.0f}" for c, x in ranked)
        held = f"   (holds {truth[p]}, {final['beliefs'][p][truth[p]] * 100:.0f} %)" if truth else ""
        lines.append(f"  {p}: {shown}{held}")
    lines.append("")
    lines.append("Evidence (the choices that weigh most):")
    for p in players:
        for sentence in final["evidence"][p] or [f"{p} never had a choice that touched a building"]:
            lines.append(f"  {sentence}")
    if r["turning_points"]:
        lines.append("")
        lines.append(f"Turning points ({r['policy']} playouts; the change in the mover's chance to win):")
        for tp in r["turning_points"]:
            better = "no better move found" if tp["better"] is None else (
                f"better: {tp['better']['move']} ({tp['better']['win'] * 100:.0f} % against {tp['played'] * 100:.0f} %"
                f" for the move played, {tp['playouts']} playouts each)")
            lines.append(f"  turn {tp['turn']:>3} {tp['player']} {tp['move']}: {tp['kind']}, "
                         f"{tp['before'] * 100:.0f} % -> {tp['after'] * 100:.0f} % ({tp['delta'] * 100:+.0f}); {better}")
    return printable_lines("\n".join(lines)) + "\n"  # names and moves come from the record: escaped


def _read(path: str) -> bytes | tuple[str, int]:
    """The file's bytes, or its reading error (line, exit status)."""
    try:  # a regular file of at most files.MAX_RECORD_BYTES; every problem one I001 line
        return read_record(path)
    except DnError as e:
        return e.format(path), e.exit_code


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one JSON object per record, one per line (JSON Lines).")
@click.option("--playouts", type=click.IntRange(min=0), default=200, show_default=True, metavar="N",
              help="Playouts per position for the win chances; 0 skips them and the turning points.")
@click.option("--policy", type=click.Choice(sorted(BOTS)), default="greedy", show_default=True,
              help="The bot style that plays the playouts, in every seat.")
@click.option("--seed", type=int, default=0, show_default=True, metavar="S", help="Seed of the playouts.")
@click.option("--turning-points", "turning", type=click.IntRange(min=0), default=3, show_default=True, metavar="K",
              help="How many mistakes and how many gains to list.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, metavar="J",
              help="Worker processes: over the records, or over the positions of a single record (at most 4 "
                   "per core, and one per record or position).")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Run the per-record analysis on the Dask cluster at ADDRESS (pip install "
                   "'drunter-notation[dask]').")
def analyze(files, fmt, playouts, policy, seed, turning, jobs, dask_address):
    """Analyse game records: after every turn, each player's probability of holding
    each building card (expert: each pair of goal cards), inferred from the moves they
    chose among the legal ones and from their ballots; the evidence in words; once
    the cards are revealed, each player's chance to win after every turn (playouts)
    and the turning points, each with the better move the playouts preferred.

    FILES are records or folders (walked for *.dn). A record that cannot be analysed
    (it does not parse, breaks a rule, or has no hands) is one error line; the others
    go on. Exit status: the worst of the records' (0 all analysed)."""
    settings = Settings(playouts=playouts, policy=policy, seed=seed, turning_points=turning)
    paths, status = record_paths(files)
    for path, outcome in _results(paths, settings, jobs, dask_address):
        kind, value = outcome
        if kind == "error":
            line, code = value
            click.echo(line, err=True)
            status = max(status, code)
        elif fmt == "json":
            sys.stdout.write(json_safe(json.dumps(value, ensure_ascii=False, separators=(",", ":"))) + "\n")
        else:
            sys.stdout.write(render_text(value) + ("\n" if len(paths) > 1 else ""))
        sys.stdout.flush()
    sys.exit(status)


def _results(paths: list[str], settings: Settings, jobs: int, dask_address: str | None):
    """(path, outcome) per record, in the order given, with a progress bar on a terminal."""
    data = [_read(p) for p in paths]
    todo = [(p, d) for p, d in zip(paths, data) if isinstance(d, bytes)]
    with contextlib.ExitStack() as stack:
        if dask_address is not None:
            outcomes = _dask(dask_address, todo, settings, stack)
        elif len(todo) == 1:  # one record: its positions spread over the workers
            outcomes = iter([_one(todo[0], settings, jobs, stack)])
        elif (workers := pool_size(jobs, len(todo))) > 1:
            pool = stack.enter_context(ProcessPoolExecutor(workers))
            outcomes = pool.map(functools.partial(_analyze, settings=settings), todo)
        else:
            outcomes = (_analyze(item, settings) for item in todo)
        show = sys.stderr.isatty() and len(paths) > 1
        bar = stack.enter_context(click.progressbar(length=len(paths), label="analysing", file=sys.stderr)
                                  if show else _Quiet())
        for p, d in zip(paths, data):
            yield p, next(outcomes) if isinstance(d, bytes) else ("error", d)
            bar.update(1)


class _Quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


def _analyze(item: tuple[str, bytes], settings: Settings):
    path, data = item
    return analyze_bytes(data, path, settings)


def _one(item: tuple[str, bytes], settings: Settings, jobs: int, stack: contextlib.ExitStack):
    path, data = item
    try:
        record = parse_bytes(data, path)
        workers = pool_size(jobs, len(record.events) + 1)  # one task per position at most
        mapper = map if workers <= 1 else functools.partial(
            stack.enter_context(ProcessPoolExecutor(workers)).map, chunksize=1)
        return "ok", analyze_record(record, path, settings, mapper)
    except DnError as e:
        return "error", (e.format(path), e.exit_code)


def _unreachable(address: str, reason: str) -> click.UsageError:
    return click.UsageError(f"cannot reach the Dask scheduler at {address} within {DASK_TIMEOUT} s: {reason}")


def _knock(address: str) -> None:
    """A TCP scheduler (``tcp://`` or ``tls://HOST:PORT``, or plain ``HOST:PORT``)
    that refuses or does not answer is known in at most DASK_TIMEOUT seconds, before
    Dask is even imported (its client retries a refused connection until its timeout)."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp", "tls"):
        return  # another transport: Dask's own timeout applies
    host, _, port = rest.rpartition(":")
    if not port.isdigit() or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=DASK_TIMEOUT).close()
    except (OSError, ValueError, OverflowError) as e:
        raise _unreachable(address, getattr(e, "strerror", None) or str(e) or type(e).__name__) from None


def _dask(address: str, todo, settings: Settings, stack: contextlib.ExitStack):
    """The same per-record function on a Dask cluster; results in the order given."""
    _knock(address)
    try:
        from dask.distributed import Client
    except ImportError:
        raise click.UsageError("--dask needs Dask: pip install 'drunter-notation[dask]'") from None
    try:
        client = stack.enter_context(Client(address, timeout=DASK_TIMEOUT))
    except (OSError, TimeoutError, ValueError) as e:
        raise _unreachable(address, str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    futures = client.map(analyze_bytes, [d for _, d in todo], [p for p, _ in todo], settings=settings, pure=False)
    return (f.result() for f in futures)
