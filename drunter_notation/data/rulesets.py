"""Rulesets as data (docs/rules.md): one TOML file per ruleset in this folder.

The engine reads every choice on which the sources differ from
:class:`Options`; it never tests a ruleset's id.

``catalogue.toml`` holds the rule IDs of docs/architecture.md with the project's
own wording, and the *topics*: the points on which the sources differ, each tied
to a rule ID and, where the engine has a choice, to an ``Options`` field. Every
ruleset file gives its source's place for each rule ID (``[sections]``), what its
source says on each topic (``[wording]``) and, where a topic sits elsewhere than
its rule, that place (``[topic_sections]``). A file with ``extends = "<id>"``
lists only what differs from that ruleset.

Every shipped file is checked when loaded; anything wrong in one -- bad TOML, an
unknown key, a value of the wrong type, a rule ID or topic left out -- is a bug of
the package and raises :class:`~drunter_notation.errors.DnError` H004 naming the
file and the key.
"""
from __future__ import annotations

import dataclasses
import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drunter_notation.data.boardfile import toml_reason
from drunter_notation.errors import DnError, did_you_mean, fail, quoted, said_citation
from drunter_notation.files import os_reason
from drunter_notation.i18n import _, ngettext
from drunter_notation.rules.options import BallotOrder, ExpertDeal, Options, Ruleset, VoteOutcome

DEFAULT_RULESET = "hig-1991"


@dataclass(frozen=True)
class Rule:
    """One rule ID of the catalogue with its title and the project's wording."""

    id: str
    title: str
    wording: str


@dataclass(frozen=True)
class Topic:
    """A point on which the sources differ: its rule ID and the Options field it maps to, if any."""

    id: str
    title: str
    rule: str
    option: str | None = None


@dataclass(frozen=True)
class DiffRow:
    """One line of a ruleset comparison.

    For a topic tied to an option, ``value_a``/``value_b`` are the option values
    as written in the ruleset files (``"true"``, ``"yes-at-least-no"``); for any
    other topic they are the two rulesets' wordings. ``wording_a``/``wording_b``
    are always the wordings. ``cite_a``/``cite_b`` are the places in the sources.
    An option that no topic covers gets the topic ``"option:<name>"``.
    """

    topic: str
    title: str
    rule: str
    value_a: str
    value_b: str
    cite_a: str
    cite_b: str
    option: str | None = None
    wording_a: str = ""
    wording_b: str = ""


_FILES = Path(__file__).parent / "rulesets"  # as boardfile finds its boards
# The values a text option may take: its enum.
_OPTION_ENUMS = {"vote_outcome": VoteOutcome, "ballot_order": BallotOrder, "expert_deal": ExpertDeal}
_CATALOGUE_FILE = "catalogue.toml"
_OPTION_FIELDS = {f.name: f for f in dataclasses.fields(Options)}
# Keys a ruleset file may have; "extends" files inherit source and label.
_RULESET_KEYS = ("id", "name", "source", "label", "extends", "options", "sections",
                 "topic_sections", "wording")
_BASE_REQUIRED = ("id", "name", "source", "label", "options", "sections", "wording")
_EXTENDS_REQUIRED = ("id", "name", "extends")
_TABLES = ("options", "sections", "topic_sections", "wording")


def _broken(filename: str, message: str) -> DnError:
    """H004 for a shipped file that is wrong: a bug of the package, never of the user."""
    return fail("H004", message, path=f"rulesets/{filename}",
                hint=_("the ruleset files ship with the package; this is a packaging bug"))


def _read_toml(filename: str) -> dict[str, Any]:
    """The parsed TOML of a file in this package; unreadable or invalid -> H004."""
    try:
        data = _FILES.joinpath(filename).read_bytes()
        return tomllib.loads(data.decode("utf-8"))
    except OSError as e:
        raise _broken(filename, _("cannot read the file: {reason}").format(reason=os_reason(e))) from None
    except UnicodeDecodeError as e:
        raise _broken(filename, _("cannot read the file: byte {offset} is not UTF-8").format(offset=e.start)) from None
    except tomllib.TOMLDecodeError as e:
        raise _broken(filename, _("invalid TOML: {reason}").format(reason=toml_reason(str(e)))) from None


def _text(value: Any, filename: str, key: str) -> str:
    """A non-empty string with runs of whitespace collapsed (TOML texts are wrapped)."""
    if not isinstance(value, str) or not value.strip():
        raise _broken(filename, _("{key}: give it as text, not empty").format(key=key))
    return " ".join(value.split())


def _table(data: dict[str, Any], name: str, filename: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise _broken(filename, _("{key}: give it as a table").format(key=name))
    return value


@functools.cache
def _catalogue_data() -> tuple[tuple[Rule, ...], tuple[Topic, ...]]:
    """The checked catalogue: rules and topics in file order."""
    data = _read_toml(_CATALOGUE_FILE)
    for key in data:
        if key not in ("rules", "topics"):
            raise _broken(_CATALOGUE_FILE, _("{key}: unknown key; the file has [rules] and [topics]").format(key=key))
    rules = []
    for rid, entry in _table(data, "rules", _CATALOGUE_FILE).items():
        where = f"rules.{rid}"
        if not isinstance(entry, dict) or set(entry) != {"title", "wording"}:
            raise _broken(_CATALOGUE_FILE, _("{key}: give it as a table of title and wording, nothing else").format(
                key=where))
        rules.append(Rule(rid, _text(entry["title"], _CATALOGUE_FILE, f"{where}.title"),
                          _text(entry["wording"], _CATALOGUE_FILE, f"{where}.wording")))
    rule_ids = {r.id for r in rules}
    if not rules:
        raise _broken(_CATALOGUE_FILE, _("{key}: the file gives no rules").format(key="rules"))
    topics = []
    for tid, entry in _table(data, "topics", _CATALOGUE_FILE).items():
        where = f"topics.{tid}"
        if not isinstance(entry, dict) or not {"title", "rule"} <= set(entry) <= {"title", "rule", "option"}:
            raise _broken(_CATALOGUE_FILE, _("{key}: give it as a table of title, rule and, if it has one, option")
                          .format(key=where))
        if entry["rule"] not in rule_ids:
            raise _broken(_CATALOGUE_FILE, _("{key}: there is no rule ID {rule}").format(
                key=f"{where}.rule", rule=quoted(entry["rule"], 40)))
        option = entry.get("option")
        if option is not None and option not in _OPTION_FIELDS:
            raise _broken(_CATALOGUE_FILE, _("{key}: the engine has no option {option}").format(
                key=f"{where}.option", option=quoted(option, 40)))
        topics.append(Topic(tid, _text(entry["title"], _CATALOGUE_FILE, f"{where}.title"),
                            entry["rule"], option))
    return tuple(rules), tuple(topics)


def catalogue() -> dict[str, Rule]:
    """Every rule ID (S1 ... X5, in the order of docs/architecture.md) with title and wording."""
    return {r.id: r for r in _catalogue_data()[0]}


def topics() -> dict[str, Topic]:
    """Every topic on which the sources differ, in the order of the rules they belong to."""
    return {t.id: t for t in _catalogue_data()[1]}


def ruleset_ids() -> list[str]:
    """The ids of the shipped rulesets, sorted."""
    root = _FILES
    return sorted(p.name[: -len(".toml")] for p in root.iterdir()
                  if p.name.endswith(".toml") and p.name != _CATALOGUE_FILE and p.is_file())


def _check_option(name: str, value: Any, filename: str) -> None:
    """Raise H004 unless ``value`` is a valid value for the Options field ``name``."""
    key = f"options.{name}"
    if name not in _OPTION_FIELDS:
        raise _broken(filename, _("{key}: the engine has no such option; it has {known}").format(
            key=key, known=", ".join(_OPTION_FIELDS)))
    enum = _OPTION_ENUMS.get(name)
    expected = str if enum else type(_OPTION_FIELDS[name].default)
    if type(value) is not expected:  # bool is an int in Python; compare exact types
        words = _("{key}: give true or false, not {value}") if expected is bool else _(
            "{key}: give it as text, not {value}")
        shown = option_text(value) if isinstance(value, bool) else quoted(value, 40)  # as TOML writes it
        raise _broken(filename, words.format(key=key, value=shown))
    choices = [e.value for e in enum] if enum else None
    if choices and value not in choices:
        raise _broken(filename, _("{key}: {value} is none of {choices}").format(
            key=key, value=quoted(value, 40), choices=", ".join(choices)))


def _checked_file(rid: str, filename: str) -> dict[str, Any]:
    """One ruleset file's own content, checked key by key (not yet merged with a parent)."""
    data = _read_toml(filename)
    for key in data:
        if key not in _RULESET_KEYS:
            raise _broken(filename, _("{key}: unknown key; a ruleset file has {known}").format(
                key=key, known=", ".join(_RULESET_KEYS)))
    for key in _EXTENDS_REQUIRED if "extends" in data else _BASE_REQUIRED:
        if key not in data:
            raise _broken(filename, _("{key}: missing").format(key=key))
    for key in ("id", "name", "source", "label", "extends"):
        if key in data:
            data[key] = _text(data[key], filename, key)
    if data["id"] != rid:
        raise _broken(filename, _("{key}: give {expected}, the file's name, not {value}").format(
            key="id", expected=quoted(rid, 40), value=quoted(data["id"], 40)))
    rule_ids, topic_ids = catalogue(), topics()
    for name, value in _table(data, "options", filename).items():
        _check_option(name, value, filename)
    unknown_rule, unknown_topic = _("{key}: there is no such rule ID"), _("{key}: there is no such topic")
    for table, known, words in (("sections", rule_ids, unknown_rule), ("topic_sections", topic_ids, unknown_topic),
                                ("wording", topic_ids, unknown_topic)):
        entries = _table(data, table, filename)
        for key, value in entries.items():
            if key not in known:
                raise _broken(filename, words.format(key=f"{table}.{key}"))
            entries[key] = _text(value, filename, f"{table}.{key}")
    return data


def _merged(rid: str, chain: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    """A ruleset's content with its ``extends`` chain applied, and the file it came from."""
    filename = f"{rid}.toml"
    data = _checked_file(rid, filename)
    parent_id = data.get("extends")
    if parent_id is None:
        return data, filename
    if parent_id in (*chain, rid):
        raise _broken(filename, _("{key}: the rulesets extend each other in a circle: {chain}").format(
            key="extends", chain=" -> ".join((*chain, rid, parent_id))))
    if parent_id not in ruleset_ids():
        raise _broken(filename, _("{key}: there is no ruleset {ruleset}").format(
            key="extends", ruleset=quoted(parent_id, 40)))
    parent = _merged(parent_id, (*chain, rid))[0]
    merged = {**parent, **{k: v for k, v in data.items() if k not in _TABLES}}
    for table in _TABLES:  # tables merge key by key: the child lists only what differs
        merged[table] = {**_table(parent, table, filename), **_table(data, table, filename)}
    return merged, filename


@functools.cache
def load_ruleset(id: str) -> Ruleset:
    """The shipped ruleset ``id`` (cached).

    Raises ``DnError`` H004 with exit code 2 for an unknown id, and H004 naming the
    file and key for a shipped file that is broken (a bug, never silently passed).
    """
    known = ruleset_ids()
    if id not in known:
        raise fail("H004", _("unknown ruleset {ruleset}{suggestion}").format(ruleset=quoted(id, 40),
                                                                             suggestion=did_you_mean(id, known)),
                   hint=_("known rulesets: {rulesets}").format(rulesets=", ".join(known)))
    data, filename = _merged(id)
    sections, wording = data["sections"], data["wording"]
    for key, table in (("sections", sections), ("wording", wording)):
        wanted = catalogue() if key == "sections" else topics()
        missing = [k for k in wanted if k not in table]
        if missing:
            raise _broken(filename, ngettext("{key}: {missing} is missing", "{key}: {missing} are missing",
                                             len(missing)).format(key=key, missing=", ".join(missing)))
    own = data.get("topic_sections", {})
    topic_sections = {t.id: own.get(t.id, sections[t.rule]) for t in topics().values()}
    return Ruleset(id=data["id"], name=data["name"], source=data["source"], label=data["label"],
                   options=_options(data["options"]), sections=dict(sections), wording=dict(wording),
                   topic_sections=topic_sections, extends=data.get("extends"))


def _options(table: dict[str, Any]) -> Options:
    """The checked ``[options]`` table as typed :class:`Options`."""
    checked: dict[str, Any] = {k: _OPTION_ENUMS[k](v) if k in _OPTION_ENUMS else v for k, v in table.items()}
    return Options(**checked)


def list_rulesets() -> list[Ruleset]:
    """Every shipped ruleset, the default (hig-1991) first, then by id."""
    ids = sorted(ruleset_ids(), key=lambda rid: (rid != DEFAULT_RULESET, rid))
    return [load_ruleset(rid) for rid in ids]


def option_text(value: bool | str) -> str:
    """An option value as the ruleset files write it: ``true``/``false`` or the string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def diff(a: Ruleset, b: Ruleset) -> list[DiffRow]:
    """Every topic on which ``a`` and ``b`` differ, in option value or in wording.

    Rows follow the catalogue's rule order; an option that differs but belongs to
    no topic still gets a row (topic ``"option:<name>"``), so nothing is hidden.
    """
    order = {rid: i for i, rid in enumerate(catalogue())}
    rows = []
    covered = set()
    for t in sorted(topics().values(), key=lambda t: order[t.rule]):
        wa, wb = a.wording.get(t.id, ""), b.wording.get(t.id, "")
        if t.option:
            covered.add(t.option)
            va, vb = getattr(a.options, t.option), getattr(b.options, t.option)
            if va == vb and wa == wb:
                continue
            value_a, value_b = option_text(va), option_text(vb)
        elif wa == wb:
            continue
        else:
            value_a, value_b = wa, wb
        rows.append(DiffRow(t.id, t.title, t.rule, value_a, value_b, a.cite_topic(t.id), b.cite_topic(t.id),
                            t.option, wa, wb))
    for name in _OPTION_FIELDS:
        va, vb = getattr(a.options, name), getattr(b.options, name)
        if name not in covered and va != vb:
            rows.append(DiffRow(f"option:{name}", name, "", option_text(va), option_text(vb),
                                a.label, b.label, name))
    return rows


def cite(ruleset: Ruleset, rule: str) -> str:
    """:meth:`Ruleset.cite` for a reader, in the language in force: the source's place
    stays as it names it; the project's words around it are translated."""
    return said_citation(ruleset.cite(rule))


def cite_topic(ruleset: Ruleset, topic: str) -> str:
    """:meth:`Ruleset.cite_topic` for a reader, in the language in force (as :func:`cite`)."""
    return said_citation(ruleset.cite_topic(topic))
