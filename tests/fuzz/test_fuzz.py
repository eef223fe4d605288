"""The fuzzer's CI slice and the inputs it (and the hostile-input review) found.

The slice checks 750 inputs of seed 1 in the README's test command (``FUZZ_INPUTS`` changes the
number: CI's long pass runs 100,000 after the README's commands) on two processes, or on one inside a
pytest-xdist worker (the other worker has the other core); it is marked ``fuzz`` so
a developer can skip it with ``-m 'not fuzz'``, while the plain test command runs it. Each regression below is one input
that once escaped as a Python exception or printed an unsafe line; it goes through
the same checks as a fuzzed input, and where the answer matters, its code and place
are asserted too. The Game API's and position strings' slice (``apifuzz``) runs two
fifths as many inputs, the table core's (``tablefuzz``, runs of up to 200 requests) a sixtieth.
"""
from __future__ import annotations

import json
import os

import apifuzz
import dnfuzz
import pytest
import tablefuzz
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from drunter_notation.errors import json_safe, printable

REPLAYS = dnfuzz.ROOT / "replays"

HEADER = '[Players "Anna, Ben"]\n'
BIG = "1" * 5000


def _judge(text: str | bytes, path: str = "fuzzed.dn"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    lines = dnfuzz.output_lines(data, path)
    assert dnfuzz.problems(lines) == []
    return [line for line, _ in lines]


def _json(lines: list[str]) -> dict:
    """The JSON line among ``validate``'s lines."""
    return json.loads(next(line for line in lines if line.startswith("{")))


@pytest.mark.fuzz
def test_fuzz_slice_finds_nothing():
    inputs = int(os.environ.get("FUZZ_INPUTS", examples(3000)))
    jobs = 1 if "PYTEST_XDIST_WORKER" in os.environ else min(2, os.cpu_count() or 1)
    result = dnfuzz.run(inputs, seed=1, jobs=jobs)
    print(f"{inputs:,} inputs: slowest {result['slowest']:.2f} s CPU, {result['cpu_seconds']:.0f} s CPU in all")
    assert [str(f) for f in result["findings"]] == []


@pytest.mark.fuzz
def test_api_fuzz_slice_finds_nothing():
    # the Game API and position strings with odd values (apifuzz.py): two fifths of FUZZ_INPUTS (300; CI 40,000)
    inputs = int(os.environ.get("FUZZ_INPUTS", examples(3000))) * 2 // 5
    assert [str(f) for f in apifuzz.run(inputs, seed=1)] == []


@pytest.mark.fuzz
def test_table_fuzz_slice_finds_nothing():
    # the table core's JSON API, in memory (tablefuzz.py): a sixtieth of FUZZ_INPUTS (12; CI 1,666), runs of requests
    inputs = int(os.environ.get("FUZZ_INPUTS", examples(3000))) // 60
    assert [str(f) for f in tablefuzz.run(inputs, seed=1)] == []


def test_an_input_that_spins_is_stopped_by_its_cpu_time(monkeypatch):
    monkeypatch.setattr(dnfuzz, "HANG_SECONDS", 0.2)

    def spin(*args, **kwargs):
        while True:
            pass
    monkeypatch.setattr(dnfuzz, "output_lines", spin)
    finding = dnfuzz.check(1, 1)
    assert finding is not None and finding.kind == "hang" and "of CPU" in finding.detail


def test_inputs_are_reproducible_from_seed_and_index():
    assert dnfuzz.make_input(7, 123) == dnfuzz.make_input(7, 123)
    assert dnfuzz.make_input(7, 123) != dnfuzz.make_input(7, 124)


def test_the_checks_catch_what_they_look_for():
    assert dnfuzz.problems([("x.dn:1:1: error[P001]: name \u202eBen", "x.dn")])
    assert dnfuzz.problems([("x.dn:1:1: error[P001]: one\rtwo", "x.dn")])
    assert dnfuzz.problems([("Traceback (most recent call last):", "x.dn")])
    assert dnfuzz.problems([("x.dn:1:1: error P001: no brackets", "x.dn")])
    assert dnfuzz.problems([("x.dn:1:1: error[P001]: fine", "x.dn"), ("x.dn: valid: 3 turns", "x.dn"),
                            ("    ^", "x.dn"), ('{"a": 1}', "x.dn"), ("free text", None)]) == []


@pytest.mark.parametrize("text, code, line", [
    (HEADER + f"{BIG}. Anna S1 a2\n", "P001", 2),  # turn number
    (HEADER + f"hand Anna: W1x{BIG}\n", "P001", 2),  # hand count
    (HEADER + f"1. Anna S1 a2 vote {{ Anna: JA, Ben: NE }} -> accepted {BIG}:0\n", "P001", 2),  # tally
    (HEADER + f"1. Anna S1 a2 vote {{ Anna: JA, Ben: NE }} -> accepted 1 : {BIG}\n", "P001", 2),
    (HEADER + f"reveal Anna: museum, Ben: tavern\nscore Anna: {BIG}, Ben: 0\n", "P001", 3),  # score
    (HEADER + f"1. Anna S1 a{BIG}\n", "P001", 2),  # row
    (HEADER + f"[Date \"{BIG}-01-01\"]\n", "H002", 2),  # date part
    (HEADER + f"{'0' * 5000}1. Anna S1 a2\n", None, None),  # leading zeros: the number is 1
], ids=["turn", "hand count", "tally yes", "tally no", "score", "row", "date", "leading zeros"])
def test_a_5000_digit_number_is_a_located_error(text, code, line):
    lines = _judge(text)
    if code is None:
        assert not any("P001" in x for x in lines)
        return
    first = next(d for d in _json(lines)["diagnostics"] if d["severity"] == "error")
    assert (first["code"], first["line"]) == (code, line)
    assert "too large" in first["message"] or code != "P001" or "expected" in first["message"]


@pytest.mark.parametrize("name", ["B\u202een", "B\u2066en\u2069", "Be\rn", "Be\u2028n", "Be\u2029n", "\u200fBen",
                                  "Ben\x1b[2J", "Ben\U000e0001", "B\u061cen"])
def test_names_with_control_or_bidi_characters_are_shown_escaped(name):
    text = f'[Players "Anna, {name}"]\n1. "{name}" S1 a2\n'
    lines = _judge(text)
    t002 = next(x for x in lines if "error[T002]" in x)
    assert name not in t002 and printable(name) in t002
    record = _json(lines)
    assert any(name in d["message"] for d in record["diagnostics"])  # JSON keeps the real string


def test_an_empty_voter_name_is_quoted():
    text = (HEADER + '[Board "boards/tiny.toml"]\n1. Anna S1 a2\n2. Ben R2 f5-f4\n'
            '3. Anna S2 b2-c2 vote { Anna: JA, "": NE } -> rejected 1:2\n')
    assert any("error[B002]: '' votes but is not a player" in x for x in _judge(text, str(REPLAYS / "x.dn")))


def test_a_long_name_before_a_syntax_error_costs_linear_time():
    # once 45 s: the text before the error was rescanned from every position
    lines = _judge(HEADER + "1. " + "A" * 90_000 + " -\n")
    assert any("error[P001]" in x and "after '" in x and "…" in x for x in lines)


def test_a_long_quoted_name_in_a_vote_costs_linear_time():
    # once about 6 s of CPU: the fast path searched for the next ballot from every position inside the name
    name = "A" * 49_000
    lines = _judge('[Players "Anna, Ben, Cleo"]\n'
                   f'1. Cleo W3 d14-d12 vote {{ Cleo: JEIN=yes, "{name}": "{name}" }}\n')
    first = _json(lines)["diagnostics"][0]
    assert (first["code"], first["line"], first["column"]) == ("P001", 2, 49_047)
    assert first["message"].startswith("expected a vote card")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
def test_utf16_and_utf32_are_named_with_a_way_to_convert(encoding):
    lines = _judge((HEADER + "1. Anna S1 a2\n").encode(encoding))
    assert any("error[I002]" in x and "UTF-" in x and "iconv" in x for x in lines)


def test_a_caret_line_stays_short_and_safe():
    text = HEADER + "1. Anna S1 a2 " + "\u202e" * 10 + "x" * 100_000 + " %\n"
    lines = _judge(text)
    assert all(len(x) < 400 for x in lines if x.startswith("    "))


@given(st.text())
def test_printable_is_one_safe_line_and_leaves_printable_text_alone(text):
    shown = printable(text)
    no_break = str.maketrans("", "", "\u00a0\u202f")  # kept: the languages write them in numbers ("12,5 %")
    assert shown.translate(no_break).isprintable() and "\n" not in shown
    assert (shown == text) == text.translate(no_break).isprintable()


@given(st.recursive(st.text() | st.integers() | st.none(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_json_safe_keeps_the_value(value):
    for indent in (None, 2):
        text = json_safe(json.dumps(value, ensure_ascii=False, indent=indent))
        assert json.loads(text) == value
        no_break = str.maketrans("", "", "\u00a0\u202f")  # kept, as printable keeps them: a Czech "100 002"
        assert all(line.translate(no_break).isprintable() for line in text.split("\n"))
