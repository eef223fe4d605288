"""What a message quotes from the input: at most a message's share of it (a 99,000-character
token makes no 99,000-character line), and its real characters, escaped once by the text
output and kept by JSON as its own escapes (docs/cli.md)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from drunter_notation.errors import SHOWN, DnError
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_move, parse_text

ROOT = Path(__file__).resolve().parents[1]

# Records with one place for a long piece of input: a token, a quoted name, a square, tag values
TEMPLATES = (
    '[Players "Anna, Ben"]\n\n1. Anna W2{x}\n',
    '[Players "Anna, Ben"]\n\n1. "{x}" W2 b1\n',
    '[Players "Anna, Ben"]\n\n1. Anna W2 a9{x}\n',
    '[Players "Anna, Ben"]\n[Result "{x}"]\n',
    '[Players "Anna, Ben"]\n[Date "{x}"]\n',
    '[Players "Anna, Ben"]\n[Variant "{x}"]\n',
    '[Players "Anna, Ben"]\n[Board "{x}"]\n',
    '[Players "Anna, Ben"]\n[Rules "{x}"]\n',
    '[Players "Anna, Ben"]\n\n1. Anna S2 b1-c1\n2. Ben W1 n1 vote {{ "{x}": JA }}\n',
)


def messages(text: str) -> list[str]:
    """Every diagnostic line the record gives, as validate prints it."""
    try:
        record = parse_text(text, "r.dn")
    except DnError as e:
        return [e.format()]
    return [d.format("r.dn") for d in judge(record, "r.dn").diagnostics]


@given(template=st.sampled_from(TEMPLATES), char=st.sampled_from("ZNé9"), n=st.integers(100, 20_000))
def test_a_message_quotes_at_most_its_share_of_a_long_token(template, char, n):
    for line in messages(template.format(x=char * n)):
        assert len(line) < 300 + 2 * SHOWN, line[:400]


def test_the_testers_long_tokens_are_cut_with_an_ellipsis():
    line = messages('[Players "Anna, Ben"]\n\n1. Anna W2' + "Z" * 99_000 + "\n")[0]
    assert "found 'W2" + "Z" * (SHOWN - 3) + "…'" in line and len(line) < 250
    line = next(m for m in messages('[Players "Anna, Ben"]\n\n1. "' + "N" * 99_000 + '" W2 b1\n') if "T002" in m)
    assert "'" + "N" * (SHOWN - 1) + "…' is not a player" in line


def test_a_long_move_token_is_cut_too():
    try:
        parse_move("S2 b1-c1 W1" + "x" * 50_000)
    except DnError as e:
        assert len(e.format()) < 400 and "x" * SHOWN not in e.format()
    else:
        raise AssertionError("no P001")


def test_a_move_longer_than_a_record_line_is_refused_at_the_limit():
    # once read whole by Lark: a megabyte of move was a second and 17 MB before its error
    try:
        parse_move("S1 a2" + " " * 200_000 + "x", "move")
    except DnError as e:
        d = e.diagnostic
        assert (d.code, d.line, d.column) == ("P001", 1, 100_001) and "at most 100,000" in d.message
    else:
        raise AssertionError("no P001")


def test_a_message_keeps_the_real_character_and_the_text_line_escapes_it_once():
    try:
        parse_text('[Players "Anna, Ben"]\n[Event\u202e "x"]\n')
    except DnError as e:
        assert "'\u202e'" in e.diagnostic.message  # the character itself, not repr's escape
        assert "'\\u202e'" in e.format() and "\u202e" not in e.format()
    else:
        raise AssertionError("no P001")


def test_validate_json_carries_the_real_character(tmp_path):
    (tmp_path / "u.dn").write_text('[Players "Anna, Ben"]\n[Event\u202e "x"]\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    out = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "validate", "--format", "json",
                          str(tmp_path / "u.dn")], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert "\\u202e" in out.stdout and "\\\\u202e" not in out.stdout and "\u202e" not in out.stdout
    message = json.loads(out.stdout)["diagnostics"][0]["message"]
    assert message.startswith("unexpected character '\u202e' after 'Event'")


def test_a_position_error_names_its_fields_through_the_catalogs(monkeypatch):
    from drunter_notation import Game, position

    monkeypatch.setattr(position, "pgettext", lambda context, word: f"<{context}:{word}>")
    try:
        Game.from_position("dn1 schilda hig-1991 base Anna,Ben x - - - ./. -")
    except DnError as e:
        assert "(<position field:next>)" in e.diagnostic.message
        assert "<POSITION FIELD:BOARD> <POSITION FIELD:RULES>" in (e.diagnostic.hint or "")
    else:
        raise AssertionError("no P002")


def test_the_move_hint_shows_a_corner_as_dn_writes_one():
    try:
        parse_move("")
    except DnError as e:
        assert "@corner" not in (e.diagnostic.hint or "") and "@o1" in (e.diagnostic.hint or "")
    else:
        raise AssertionError("no P001")
