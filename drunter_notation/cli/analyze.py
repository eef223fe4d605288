"""``drunter analyze``: who protects which building, win chances, turning points."""
from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import click

from drunter_notation import i18n
from drunter_notation.analysis import Settings, analyze_bytes, analyze_record
from drunter_notation.analysis.inference import favourite
from drunter_notation.analysis.record import MAX_PLAYOUTS, ONE_PLAYOUT
from drunter_notation.bots import STYLES
from drunter_notation.cli.cluster import on_cluster
from drunter_notation.cli.common import SEED, pool_size, record_paths
from drunter_notation.errors import DnError, json_safe, printable, printable_lines
from drunter_notation.explain.evidence import percent, said, summary, turning_point, whole_percent
from drunter_notation.explain.words import goal_name
from drunter_notation.files import read_record
from drunter_notation.i18n import N_, _, ngettext, pgettext
from drunter_notation.notation.parser import parse_bytes

_GAME = {"base": N_("base game"), "expert": N_("expert game")}


def _head(r: dict[str, Any]) -> str:
    n, variant = len(r["turns"]) - 1, r["variant"]
    game = _(_GAME[variant]) if variant in _GAME else variant
    return ngettext("{file}: {n} turn, {game} ({rules}, {board}); after every turn, each player's card if one "
                    "stands out (model: docs/analysis.md)",
                    "{file}: {n} turns, {game} ({rules}, {board}); after every turn, each player's card if one "
                    "stands out (model: docs/analysis.md)", n).format(
        file=printable(r["file"]), n=n, game=game, rules=r["rules"], board=r["board"])  # a name may hold a line feed


def _win_legend(r: dict[str, Any]) -> str:
    top = max(x for e in r["turns"] for x in e["win_se"].values())
    n, points = r["playouts"], int(f"{top * 100:.0f}")
    error = ngettext("standard error at most {n} point", "standard error at most {n} points", points).format(n=points)
    if r["policy"] == "inferred":
        line = ngettext("win %: each player's chance to win after the turn, from {n} playout a position, the cards "
                        "drawn from the beliefs after it, each seat played by the style mix the model inferred for "
                        "it ({error})",
                        "win %: each player's chance to win after the turn, from {n} playouts a position, the cards "
                        "drawn from the beliefs after it, each seat played by the style mix the model inferred for "
                        "it ({error})", n)
    else:
        line = ngettext("win %: each player's chance to win after the turn, from {n} playout a position, the cards "
                        "drawn from the beliefs after it, every seat played by the {bot} bot ({error})",
                        "win %: each player's chance to win after the turn, from {n} playouts a position, the cards "
                        "drawn from the beliefs after it, every seat played by the {bot} bot ({error})", n)
    return line.format(n=n, bot=r["policy"], error=error)


def render_text(r: dict[str, Any]) -> str:
    """The analysis as a table per turn (each player's card if one stands out, the
    win chances), what the marks mean, then the end, the evidence and the turning
    points."""
    players = r["players"]
    cards = [goal_name(k) for k in r["turns"][0]["beliefs"][players[0]]]
    width = max(max(len(k) for k in cards) + 4, max(len(printable(p)) for p in players)) + 2  # full names, never cut
    win = r["turns"][0]["win"] is not None
    lines = [_head(r)]
    if win:
        lines.append(_win_legend(r))
    names = [printable(p) for p in players]  # names come from the record: escaped, never cut
    cols = [max(len(p), 5) for p in names]
    rejected = _(" (no)")
    wide = max(22, max(len(p) for p in names) + 12 + len(rejected))  # the mover's full name, the longest move, " (no)"
    turn, move, chance = pgettext("column", "turn"), pgettext("column", "move"), pgettext("column", "win %")
    t = max(4, len(turn))
    head = f"{turn:>{t}}  {move:<{wide}}" + "".join(f"{p:<{width}}" for p in names)
    columns = " ".join(f"{p:>{c}}" for p, c in zip(names, cols, strict=True))
    lines.append((head + (f"| {chance} {columns}" if win else "")).rstrip())
    for e in r["turns"]:
        played = "" if e["move"] is None else f"{e['player']} {e['move']}" + (rejected if e.get("vote") ==
                                                                             "rejected" else "")
        cells = []
        for p in players:
            fav = favourite(e["beliefs"][p])
            cells.append(("-" if fav is None else f"{goal_name(fav[0])} {whole_percent(fav[1]):>2}").ljust(width))
        row = f"{e['turn']:>{t}}  {printable(played):<{wide}}" + "".join(cells)
        if win:
            chances = (f"{e['win'][p] * 100:{c}.0f}" for p, c in zip(players, cols, strict=True))
            row += "|" + " " * (len(chance) + 2) + " ".join(chances)
        lines.append(row.rstrip())
    lines += ["  " + _("card n: the card that stands out, and its probability in % (99 at most while not certain)"),
              "  " + _("-: no card stands out (none is twice as likely as chance and half again as likely as the "
                       "next)"),
              "  " + _("(no): the tile was voted down and went back to the hand")]
    final = r["final"]
    truth = final["truth"]
    lines.append("")
    lines.append(_("At the end, the most probable cards (%), * the card revealed:") if truth
                 else _("At the end, the most probable cards (%):"))
    for p in players:
        ranked = sorted(final["beliefs"][p].items(), key=lambda kv: -kv[1])[:4]
        shown = "  ".join(f"{goal_name(c)}{'*' if truth and truth[p] == c else ''} {whole_percent(x)}"
                          for c, x in ranked)
        held = "   " + _("(holds {card}, {p})").format(card=goal_name(truth[p]),
                                                      p=percent(final["beliefs"][p][truth[p]])) \
            if truth else ""
        lines.append(f"  {p}: {shown}{held}")
    lines.append("")
    lines.append(_("How sure, and the evidence (the choices that weigh most; styles: docs/analysis.md):"))
    for p in players:
        lines.append("  " + summary(p, final["beliefs"][p], final["styles"][p], final["favourite"][p]))
        sentences = [said(p, item) or "" for item in final["evidence"][p]]
        for sentence in sentences or [_("{player} never had a choice that touched a building").format(player=p)]:
            lines.append(f"    {sentence}")
    if win:
        lines += ["", *turning_lines(r)]
    return printable_lines("\n".join(lines)) + "\n"  # names and moves come from the record: escaped


def turning_lines(r: dict[str, Any]) -> list[str]:
    """The turning points in words, every figure with its standard error."""
    if r["final"]["truth"]:
        head = _("Turning points (the mover's chance to win, the mover's own card known, the others' cards drawn "
                 "from the beliefs before the move; each figure from its own fresh playouts, ± one standard error):")
    else:
        head = _("Turning points (the mover's chance to win, the mover's card too drawn from the beliefs, the "
                 "others' cards drawn from the beliefs before the move; each figure from its own fresh playouts, "
                 "± one standard error):")
    examined = r["examined"]
    if not r["turning_points"]:
        return [head, "  " + ngettext(
            "no clear turning point: of the {n} placement examined, none changed its mover's chance by more than "
            "two standard errors",
            "no clear turning point: of the {n} placements examined, none changed its mover's chance by more than "
            "two standard errors", examined).format(n=examined)]
    out = [head] + ["  " + _("turn {turn} {turning_point}").format(turn=f"{tp['turn']:>3}",
                                                                   turning_point=turning_point(tp, "->"))
                    for tp in r["turning_points"]]
    n = r["turning_points"][0]["playouts"]
    out.append("  ({playouts}; {examined})".format(
        playouts=ngettext("{n} playout a figure", "{n} playouts a figure", n).format(n=n),
        examined=ngettext("{n} placement examined, those shown changed their mover's chance by more than two "
                          "standard errors",
                          "{n} placements examined, those shown changed their mover's chance by more than two "
                          "standard errors", examined).format(n=examined)))
    return out


def _read(path: str) -> bytes | tuple[str, int]:
    """The file's bytes, or its reading error (line, exit status)."""
    try:  # a regular file of at most files.MAX_RECORD_BYTES; every problem one I001 line
        return read_record(path)
    except DnError as e:
        return e.format(path), e.exit_code


# Analyse game records: the help below says what and how.
def _playouts(ctx: click.Context, param: click.Parameter, value: int) -> int:
    if value == 1:  # a win chance and its standard error need two playouts at least
        raise click.BadParameter(_(ONE_PLAYOUT))
    return value


@click.command(help=N_(
    "Analyse game records: after every turn, each player's probability of holding each building card (expert: "
    "each pair of goal cards), inferred from the moves they chose among the legal ones and from their ballots; "
    "the evidence in words; each player's chance to win after every turn (playouts, each seat played by its "
    "inferred style with a card drawn from the beliefs) and the turning points, each with the better move if one "
    "is clearly better.\n\n"
    "FILES are records or folders (walked for *.dn). A record that cannot be analysed (it does not parse, breaks "
    "a rule, or has no hands) is one error line; the others go on. Exit status: the worst of the records' (0 all "
    "analysed)."))
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help=N_("json: one JSON object per record, one per line (JSON Lines)."))
@click.option("--playouts", type=click.IntRange(min=0, max=MAX_PLAYOUTS), default=200, show_default=True, metavar="N",
              callback=_playouts,
              help=N_("Playouts per position for the win chances; 0 skips them and the turning points."))
@click.option("--policy", type=click.Choice(["inferred", *sorted(STYLES)]), default="inferred", show_default=True,
              help=N_("Who plays the playouts: inferred (each seat the style mix the model inferred for it), or one "
                      "bot style in every seat."))
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="S",
              help=N_("Seed of the playouts."))
@click.option("--turning-points", "turning", type=click.IntRange(min=0, max=50), default=3, show_default=True,
              metavar="K", help=N_("How many of the largest losses and gains to examine as turning points."))
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, metavar="J",
              help=N_("Worker processes: over the records, or over the positions of a single record (at most 4 "
                      "per core, and one per record or position)."))
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help=N_("Run the per-record analysis on the Dask cluster at ADDRESS (pip install "
                      "'drunter-notation[dask]')."))
def analyze(files: tuple[str, ...], fmt: str, playouts: int, policy: str, seed: int, turning: int, jobs: int,
            dask_address: str | None) -> None:
    settings = Settings(playouts=playouts, policy=policy, seed=seed, turning_points=turning)
    paths, status = record_paths(files)
    for _path, outcome in _results(paths, settings, jobs, dask_address):
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


def _results(paths: list[str], settings: Settings, jobs: int, dask_address: str | None
             ) -> Iterator[tuple[str, Any]]:
    """(path, outcome) per record, in the order given, with a progress bar on a terminal."""
    data = [_read(p) for p in paths]
    todo = [(p, d) for p, d in zip(paths, data, strict=True) if isinstance(d, bytes)]
    with contextlib.ExitStack() as stack:
        if dask_address is not None:
            per_record = functools.partial(_analyze, settings=settings, lang=i18n.language())
            outcomes = on_cluster(dask_address, per_record, todo)
        elif len(todo) == 1:  # one record: its positions spread over the workers
            outcomes = iter([_one(todo[0], settings, jobs, stack)])
        elif (workers := pool_size(jobs, len(todo))) > 1:
            pool = stack.enter_context(ProcessPoolExecutor(workers))
            outcomes = pool.map(functools.partial(_analyze, settings=settings, lang=i18n.language()), todo)
        else:
            outcomes = (_analyze(item, settings, i18n.language()) for item in todo)
        show = sys.stderr.isatty() and len(paths) > 1
        bar: Any = stack.enter_context(click.progressbar(length=len(paths), label=_("analysing"), file=sys.stderr)
                                  if show else _Quiet())
        for p, d in zip(paths, data, strict=True):
            yield p, next(outcomes) if isinstance(d, bytes) else ("error", d)
            bar.update(1)


class _Quiet:
    def __enter__(self) -> _Quiet:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def update(self, n: int) -> None:
        pass


def _analyze(item: tuple[str, bytes], settings: Settings, lang: str) -> Any:
    path, data = item
    return analyze_bytes(data, path, settings, lang)


def _one(item: tuple[str, bytes], settings: Settings, jobs: int, stack: contextlib.ExitStack) -> Any:
    path, data = item
    try:
        record = parse_bytes(data, path)
        workers = pool_size(jobs, len(record.events) + 1)  # one task per position at most
        mapper = map if workers <= 1 else functools.partial(
            stack.enter_context(ProcessPoolExecutor(workers)).map, chunksize=1)
        return "ok", analyze_record(record, path, settings, mapper)
    except DnError as e:
        return "error", (e.format(path), e.exit_code)
