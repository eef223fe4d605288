"""``drunter rules``: list the shipped rulesets, show one, compare two.

``show`` prints every rule ID with its title, the project's wording and the place
in that ruleset's source, then the ruleset's options and what its source says on
every point where the sources differ. ``diff`` prints those points on which two
rulesets differ, each with both sources' places. Errors (an unknown ruleset) are
one line on stderr and exit code 2, never a traceback.
"""
from __future__ import annotations

import dataclasses
import json
import shutil
import textwrap

import click

from drunter_notation.cli.common import DiagnosticError, display_width, pad
from drunter_notation.data.rulesets import (
    DEFAULT_RULESET,
    DiffRow,
    catalogue,
    cite,
    cite_topic,
    diff,
    list_rulesets,
    load_ruleset,
    option_text,
    topics,
)
from drunter_notation.errors import DnError
from drunter_notation.i18n import N_, _, ngettext
from drunter_notation.rules.options import Ruleset

_INDENT = "    "
_SHOW_WIDTH = 88  # fixed, so the text output is the same on every terminal
MAX_WIDTH = 400  # --width and the terminal width, bounded: a table line is built in memory


@click.group(help=N_("The rulesets (sources of the rules) and how they differ."))
def rules() -> None:
    pass


@rules.command("list", help=N_("One line per ruleset: id, name, source file; the default is marked."))
def list_cmd() -> None:
    try:
        rulesets = list_rulesets()
    except DnError as e:
        raise _located(e, "list") from None
    width = max(len(r.id) for r in rulesets)
    for r in rulesets:
        mark = " " + _("(default)") if r.id == DEFAULT_RULESET else ""
        click.echo(f"{r.id:<{width}}  {_(r.name)}{mark}  [{r.source}]")


@rules.command(help=N_("Every rule of ruleset ID with its place in the source, then its options."))
@click.argument("ruleset_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def show(ruleset_id: str, fmt: str) -> None:
    try:
        r = load_ruleset(ruleset_id)
    except DnError as e:
        raise _located(e, "show") from None
    if fmt == "json":
        click.echo(json.dumps(_show_json(r), ensure_ascii=False, indent=2))
        return
    click.echo(_show_text(r))


# The diff command's help (a module constant: one text, marked for the catalogs).
_DIFF_HELP = N_("""Where rulesets A and B give different verdicts, each point with both places in the sources.

First come the options whose values differ: each changes the verdict on some
move. With --all, then every point where only the sources' wording differs.""")


@rules.command("diff", help=_DIFF_HELP)
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True, help=N_("text: a table sized to --width; markdown: one row per line."))
@click.option("--all", "show_all", is_flag=True,
              help=N_("Also the points where only the sources' wording differs (after those that change a "
                      "verdict)."))
@click.option("--width", type=click.IntRange(min=60, max=MAX_WIDTH), default=None, metavar="N",
              help=N_("Width of the text table (default: the terminal's)."))
def diff_cmd(a: str, b: str, fmt: str, show_all: bool, width: int | None) -> None:
    try:
        ra, rb = load_ruleset(a), load_ruleset(b)
    except DnError as e:
        raise _located(e, "diff") from None
    data = diff(ra, rb)
    rows = [_shown(ra, rb, row) for row in data]
    verdicts = [row for row in rows if row.option and row.value_a != row.value_b]
    wording = [row for row in rows if row not in verdicts]
    shown = verdicts + wording if show_all else verdicts
    if fmt == "json":
        places = {row.topic: (row.cite_a, row.cite_b) for row in data}  # citations are data: as the files write them
        out = {"a": ra.id, "b": rb.id, "rows": [{**dataclasses.asdict(row), "cite_a": places[row.topic][0],
                                                 "cite_b": places[row.topic][1]} for row in shown],
               "wording_only_not_shown": 0 if show_all else len(wording)}
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    if not rows:
        click.echo(_("{a} and {b} do not differ").format(a=ra.id, b=rb.id))
        return
    if not verdicts:
        click.echo(_("{a} and {b} give the same verdicts").format(a=ra.id, b=rb.id))
    elif fmt == "markdown":
        click.echo(_diff_markdown(ra, rb, shown))
    else:
        width = width or min(max(shutil.get_terminal_size((120, 24)).columns, 60), MAX_WIDTH)
        click.echo(_diff_table(ra, rb, shown, width))
    if wording and not show_all:
        click.echo(ngettext("({n} more point where only the wording of the sources differs: --all shows it)",
                            "({n} more points where only the wording of the sources differs: --all shows them)",
                            len(wording)).format(n=len(wording)))


def _shown(ra: Ruleset, rb: Ruleset, row: DiffRow) -> DiffRow:
    """``row`` as a reader sees it: title, wordings and the words around the places
    in the language in force; option values stay as the files write them."""
    if row.topic.startswith("option:"):
        return row
    wa, wb = _(row.wording_a), _(row.wording_b)
    return dataclasses.replace(row, title=_(row.title), wording_a=wa, wording_b=wb,
                               value_a=row.value_a if row.option else wa, value_b=row.value_b if row.option else wb,
                               cite_a=cite_topic(ra, row.topic), cite_b=cite_topic(rb, row.topic))


def _located(e: DnError, command: str) -> DiagnosticError:
    """The error of a ruleset the command line named, located at the command."""
    return DiagnosticError(e, e.path or f"drunter rules {command}")


def _show_json(r: Ruleset) -> dict[str, object]:
    """Everything ``show`` prints, as one JSON object."""
    return {
        "id": r.id,
        "name": _(r.name),
        "source": r.source,
        "label": r.label,
        "default": r.id == DEFAULT_RULESET,
        "extends": r.extends,
        "rules": [{"id": rule.id, "title": _(rule.title), "wording": _(rule.wording),
                   "section": r.sections.get(rule.id), "citation": r.cite(rule.id)}
                  for rule in catalogue().values()],
        "options": {f.name: getattr(r.options, f.name) for f in dataclasses.fields(r.options)},
        "topics": [{"id": t.id, "title": _(t.title), "rule": t.rule, "option": t.option,
                    "value": getattr(r.options, t.option) if t.option else None,
                    "wording": _wording(r, t.id), "citation": r.cite_topic(t.id)}
                   for t in topics().values()],
    }


def _wrap(text: str, indent: str = _INDENT) -> str:
    return textwrap.fill(text, _SHOW_WIDTH, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)


def _wording(r: Ruleset, topic: str) -> str | None:
    text = r.wording.get(topic)
    return _(text) if text is not None else None


def _show_text(r: Ruleset) -> str:
    source = (_("source: {source}, cited as {label}; extends {parent}") if r.extends
              else _("source: {source}, cited as {label}"))
    lines = [f"{r.id}: {_(r.name)}" + (" " + _("(default)") if r.id == DEFAULT_RULESET else ""),
             source.format(source=r.source, label=repr(r.label), parent=r.extends),
             "", _("RULES"), ""]
    for rule in catalogue().values():
        lines += [f"{rule.id}  {_(rule.title)}  ({cite(r, rule.id)})", _wrap(_(rule.wording)), ""]
    lines += [_("OPTIONS"), ""]
    by_option = {t.option: t for t in topics().values() if t.option}
    for f in dataclasses.fields(r.options):
        lines.append(f"{f.name} = {option_text(getattr(r.options, f.name))}")
        t = by_option.get(f.name)
        if t is not None:
            lines += [_wrap(f"{t.rule} {_(t.title)}: {_wording(r, t.id) or _('(no wording)')}"),
                      f"{_INDENT}({cite_topic(r, t.id)})"]
        lines.append("")
    lines += [_("OTHER POINTS WHERE THE SOURCES DIFFER"), ""]
    for t in topics().values():
        if not t.option:
            lines += [f"{t.rule} {_(t.title)} [{t.id}]", _wrap(_wording(r, t.id) or _("(no wording)")),
                      f"{_INDENT}({cite_topic(r, t.id)})", ""]
    return "\n".join(lines).rstrip("\n")


def _cell(row: DiffRow, side: str) -> tuple[str, str, str]:
    """(option value or "", wording, citation) of one side of a row."""
    if side == "a":
        return (row.value_a if row.option else ""), row.wording_a, row.cite_a
    return (row.value_b if row.option else ""), row.wording_b, row.cite_b


def _diff_markdown(ra: Ruleset, rb: Ruleset, rows: list[DiffRow]) -> str:
    def cell(row: DiffRow, side: str) -> str:
        value, wording, cite = _cell(row, side)
        text = (f"`{value}`: " if value else "") + f"{wording} ({cite})"
        return text.replace("|", "\\|")

    def topic(row: DiffRow) -> str:
        return f"{row.rule} {row.title}".strip() + (f" (`{row.option}`)" if row.option else "")

    out = [f"| {_('topic')} | {ra.id} ({ra.label}) | {rb.id} ({rb.label}) |", "|---|---|---|"]
    out += [f"| {topic(row)} | {cell(row, 'a')} | {cell(row, 'b')} |" for row in rows]
    return "\n".join(out)


def _diff_table(ra: Ruleset, rb: Ruleset, rows: list[DiffRow], width: int) -> str:
    """A grid table of three columns sized to ``width``; an option line is never broken
    (its column widens to it), a citation only when it is longer than its column.
    Columns are padded by the width a terminal shows, not by the number of characters."""
    topic_w = 22
    col_w = max((width - topic_w - 6) // 2, 30)  # 6: the two " | " separators

    def lines(row: DiffRow, side: str) -> list[str]:
        value, wording, cite = _cell(row, side)
        out = [f"{row.option} = {value}"] if value else []
        out += textwrap.wrap(wording, col_w, break_long_words=False, break_on_hyphens=False)
        return out + textwrap.wrap(f"({cite})", col_w, break_long_words=False, break_on_hyphens=False)

    head = [[_("topic")], [f"{ra.id} ({ra.label})"], [f"{rb.id} ({rb.label})"]]
    body = [[textwrap.wrap(f"{row.rule} {row.title}".strip(), topic_w), lines(row, "a"), lines(row, "b")]
            for row in rows]
    widths = [max([w, *(display_width(line) for cols in [head, *body] for line in cols[i])])
              for i, w in enumerate((topic_w, col_w))]

    def render(cols: list[list[str]]) -> list[str]:
        height = max(len(c) for c in cols)
        x, y, z = (c + [""] * (height - len(c)) for c in cols)
        return [f"{pad(a, widths[0])} | {pad(b, widths[1])} | {c}".rstrip() for a, b, c in zip(x, y, z, strict=True)]

    sep = f"{'-' * widths[0]}-+-{'-' * widths[1]}-+-{'-' * col_w}"
    out = render(head)
    for cols in body:
        out += [sep, *render(cols)]
    return "\n".join(out)
