"""Every sample record in ``replays/`` gets exactly the verdict its header declares.

Each sample starts with ``# expect: valid`` or ``# expect: error CODE line N`` (N: the
line the first error is reported on, docs/diagnostics.md). The verdict is taken the way a
user gets it: through the CLI, ``drunter validate --format json FILE``; the exit
status must follow docs/diagnostics.md (0 valid, 1 a rule or syntax error, 2 an unknown board or
ruleset or an unreadable file).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.cli import cli
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
SAMPLES = sorted(REPLAYS.rglob("*.dn"))
ILLEGAL = REPLAYS / "illegal"
EXPECT = re.compile(r"#\s*expect:\s*(?:(valid)|error\s+([A-Z]\d{3})\s+line\s+(\d+))\s*$")

# Every code of codes.CODES that a record can earn (I004, an empty file, cannot carry
# a header; W001/W002 are warnings) has at least one sample in replays/illegal.
ERROR_CODES = ("P001 H001 H002 H003 H004 D001 D002 D003 T001 T002 T003 T004 T005 A001 A002 A003 "
               "A004 A005 A006 B001 B002 B003 B004 B005 E001 E002 E003 E004 X001 X002 X003").split()
EXIT_2 = {"H003", "H004", "I001", "I002", "I003"}


def declared(path: Path) -> tuple[str, int] | None:
    """``(code, line)`` declared by the sample's first line, or None for ``valid``."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = EXPECT.fullmatch(first)
    assert m, f"{path.name}: the first line must be '# expect: valid' or '# expect: error CODE line N'"
    return None if m.group(1) else (m.group(2), int(m.group(3)))


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_there_are_samples():
    assert len(SAMPLES) >= len(ERROR_CODES)
    assert any(REPLAYS.joinpath("edge").glob("*.dn"))


@pytest.mark.parametrize("path", SAMPLES, ids=rel)
def test_sample_gets_its_declared_verdict(path: Path):
    expected = declared(path)
    result = run("validate", "--format", "json", str(path))
    objects = [json.loads(line) for line in result.output.splitlines() if line.strip()]
    assert len(objects) == 1, result.output
    out = objects[0]
    errors = [d for d in out["diagnostics"] if d["severity"] == "error"]
    if expected is None:
        assert out["valid"] is True, errors
        assert errors == []
        assert result.exit_code == 0
        return
    code, line = expected
    assert out["valid"] is False
    assert errors, "no error reported"
    first = errors[0]
    assert (first["code"], first["line"]) == (code, line), first["message"]
    assert first["message"]
    # Replay stops at the first rule violation, so one error per record.
    assert len(errors) == 1, errors
    assert result.exit_code == (2 if code in EXIT_2 else 1)


@pytest.mark.parametrize("path", SAMPLES, ids=rel)
def test_sample_header_and_canonical_form(path: Path):
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[1].startswith("# ") and len(lines[1]) > 10, "line 2 says in words what the sample shows"
    expected = declared(path)
    if expected is not None and expected[0] == "P001":
        return  # a record that does not parse has no canonical form
    assert format_record(parse_text(text)) == text, f"{path.name} is not canonical: run drunter fmt --write"


def test_every_error_code_has_an_illegal_sample():
    have = {p.name.split("-")[0] for p in ILLEGAL.glob("*.dn")}
    assert set(ERROR_CODES) <= have, sorted(set(ERROR_CODES) - have)
    for p in ILLEGAL.glob("*.dn"):
        code = p.name.split("-")[0]
        assert declared(p) is not None and declared(p)[0] == code, f"{p.name} is named after the wrong code"


def test_edge_samples_are_valid():
    for p in REPLAYS.joinpath("edge").glob("*.dn"):
        assert declared(p) is None, f"{p.name}: replays/edge holds legal records only"


def test_text_format_names_the_code_rule_and_line():
    path = ILLEGAL / "A004-overlap.dn"
    result = run("validate", str(path))
    assert result.exit_code == 1
    first = next(line for line in result.output.splitlines() if "error[" in line)
    assert first.startswith(f"{path}:9:1: error[A004]: ")
    assert "overlaps the street tile laid on turn 1" in first
    assert "rule A3" in first and "HiG 1991" in first


def test_directory_exit_status_follows_the_worst_file():
    # Exit status 1 when some file breaks a rule or does not parse; 2 when a board or
    # ruleset is unknown. replays/ holds the H003 and H004 samples, so the whole
    # directory exits 2; without them the illegal samples make it exit 1.
    result = run("validate", str(REPLAYS))
    assert result.exit_code == 2
    for p in SAMPLES:  # every file is judged, one summary line each
        assert f"{p}: " in result.output
    rule_breakers = [str(p) for p in SAMPLES if declared(p) is None or declared(p)[0] not in EXIT_2]
    result = run("validate", *rule_breakers)
    assert result.exit_code == 1


def test_expect_mode_over_all_samples_exits_0():
    result = run("validate", "--expect", str(REPLAYS))
    assert result.exit_code == 0, result.output
    assert "MISMATCH" not in result.output


def test_expect_mode_reports_a_wrong_header(tmp_path):
    bad = tmp_path / "wrong.dn"
    bad.write_text((ILLEGAL / "A004-overlap.dn").read_text(encoding="utf-8").replace("line 9", "line 8", 1),
                   encoding="utf-8")
    result = run("validate", "--expect", str(bad))
    assert result.exit_code == 1
    assert "MISMATCH" in result.output


def test_valid_and_invalid_together_exit_1():
    result = run("validate", str(REPLAYS / "edge" / "complete-tiny.dn"), str(ILLEGAL / "T002-wrong-player.dn"))
    assert result.exit_code == 1


def test_exit_2_wins_over_exit_1():
    result = run("validate", str(ILLEGAL / "T002-wrong-player.dn"), str(ILLEGAL / "H004-unknown-ruleset.dn"))
    assert result.exit_code == 2


def test_unreadable_file_exits_2(tmp_path):
    result = run("validate", "--format", "json", str(tmp_path / "missing.dn"))
    assert result.exit_code == 2
    out = json.loads(result.output.splitlines()[0])
    assert out["valid"] is False


def test_directory_of_valid_samples_exits_0():
    result = run("validate", str(REPLAYS / "edge"))
    assert result.exit_code == 0, result.output


def test_rules_option_overrides_the_tag():
    # The bridge run of A001-bridge-run.dn is legal under deskovehry-cz.
    path = ILLEGAL / "A001-bridge-run.dn"
    assert run("validate", str(path)).exit_code == 1
    result = run("validate", "--format", "json", "--rules", "deskovehry-cz", str(path))
    assert result.exit_code == 0
    assert json.loads(result.output)["ruleset"] == "deskovehry-cz"


# Each illegal sample tests exactly one thing: with its one fault mended (old -> new in
# the record below the two header comments; several pairs where the fault spans two
# places) the record is legal.
MENDS = {
    "P001-missing-comma.dn": ("JA Ben", "JA, Ben"),
    "H001-one-player.dn": ('"Anna"]', '"Anna, Ben"]'),
    "H002-bad-variant.dn": ('"advanced"', '"base"'),
    "H003-unknown-board.dn": ('"atlantis"', '"schilda"'),
    "H004-unknown-ruleset.dn": ('"hig-1992"', '"hig-1991"'),
    "D001-missing-hand.dn": ("R1x3\n\n", "R1x3\nhand Ben: W3x3 S3 R3x2 W2x6 S2x3 R2x3 W1x6 S1x3 R1x3\n\n"),
    # one wall triple and one wall single change hands
    "D002-wrong-deal.dn": (("Anna: W3x4", "Anna: W3x3"), ("W1x5", "W1x6"), ("Ben: W3x2", "Ben: W3x3"),
                           ("W1x7", "W1x6")),
    "D003-box-mismatch.dn": ("Ben: W3x3 S3x3", "Ben: W3x3 R3x3"),
    "T001-turn-number.dn": ("4. Anna", "3. Anna"),
    "T002-wrong-player.dn": ("2. Anna", "2. Ben"),
    "T003-tile-used-up.dn": ("3. Anna S3 e1-g1", "3. Anna S2 e1-f1"),
    "T004-pass-with-move.dn": ("8. Ben pass", "8. Ben S1 d1"),
    "T005-turn-after-end.dn": ("17. Anna pass\n", ""),
    "A001-not-at-a-gang.dn": ("S2 e5-f5", "S2 d1-e1"),
    "A001-bridge-run.dn": ("W2 d13-e13", "W1 a12"),
    "A002-reversed.dn": ("c1-b1", "b1-c1"),
    "A002-wrong-way-at-named-corner.dn": ("@a6", "@f1"),
    "A003-off-board.dn": ("R3 n14-n16", "R2 n14-n15"),
    "A004-overlap.dn": ("S2 b2-b1", "S1 b2"),
    "A005-corner.dn": ("W1 o1", "W1 n2"),
    "A006-ambiguous-wall.dn": ("W1 b3", "W1 b3 @a6"),
    "A006-corner-wrong-kind.dn": (" @o1", ""),
    "B001-vote-missing.dn": ("c2-c3\n", "c2-c3 vote { Anna: JA, Ben: NE }\n"),
    "B001-vote-without-toilet.dn": (" vote { Ben: JA, Anna: NE } -> accepted 1:1", ""),
    "B002-ballot-order.dn": ("{ Ben: NE, Anna: JA }", "{ Anna: JA, Ben: NE }"),
    "B003-card-spent.dn": ("Anna: JAA } -> accepted 3:0", "Anna: JAAA } -> accepted 4:0"),
    "B003-twice-in-ballot.dn": ("JA JA, Ben: NE } -> accepted 2:1", "JA JAA, Ben: NE } -> accepted 3:1"),
    "B004-jein-undeclared.dn": ("JEIN }", "JEIN=no }"),
    "B005-wrong-outcome.dn": ("-> accepted", "-> rejected"),
    "B005-tie-webley.dn": ("-> accepted", "-> rejected"),
    "B005-wrong-tally.dn": ("5:3", "4:3"),
    "E001-reveal-twice.dn": ("Anna: museum", "Ben: museum"),
    "E002-not-over.dn": ("\nreveal", "16. Ben W2 b2-a2\n\nreveal"),
    "E003-wrong-score.dn": ("Anna: 2,", "Anna: 1,"),
    "E004-wrong-result.dn": ('"Ben"', '"Anna"'),
    "X001-goal-twice.dn": ("museum, museum", "museum, one-each"),
    "X002-choose-missing.dn": ("10. Ben R1 f2\n", "10. Ben R1 f2\nchoose\n"),
    "X002-choose-never.dn": ("rejected 2:3\n", "rejected 2:3\nchoose\n"),
    "X003-chosen-not-dealt.dn": ("lowest-of-each", "one-each"),
}


def test_every_illegal_sample_has_a_mend():
    assert set(MENDS) == {p.name for p in ILLEGAL.glob("*.dn")}


@pytest.mark.parametrize("name", sorted(MENDS))
def test_illegal_sample_is_legal_once_its_one_fault_is_mended(tmp_path, name):
    mend = MENDS[name]
    pairs = mend if isinstance(mend[0], tuple) else (mend,)
    text = (ILLEGAL / name).read_text(encoding="utf-8")
    head, body = text.split("\n", 2)[:2], text.split("\n", 2)[2]
    for old, new in pairs:
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    # Same layout as replays/, so that "../boards/tiny.toml" still resolves.
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "tiny.toml").write_bytes((REPLAYS / "boards" / "tiny.toml").read_bytes())
    (tmp_path / "illegal").mkdir()
    mended = tmp_path / "illegal" / name
    mended.write_text("\n".join(head) + "\n" + body, encoding="utf-8")
    result = run("validate", "--format", "json", str(mended))
    out = json.loads(result.output)
    assert out["valid"], out["diagnostics"]
    assert result.exit_code == 0


def test_json_output_has_the_fields_of_dn_spec_3():
    result = run("validate", "--format", "json", str(ILLEGAL / "B003-card-spent.dn"),
                 str(REPLAYS / "edge" / "complete-tiny.dn"))
    bad, good = (json.loads(line) for line in result.output.splitlines())
    assert {"file", "valid", "diagnostics", "summary"} <= bad.keys()
    d = next(d for d in bad["diagnostics"] if d["severity"] == "error")
    assert {"severity", "code", "line", "column", "turn", "message", "rule"} <= d.keys()
    assert (d["code"], d["line"], d["turn"], d["rule"]) == ("B003", 10, 6, "B7")
    assert "spent in the vote on turn 3" in d["message"]
    assert good["valid"] and good["summary"]["scores"] == {"Anna": 1, "Ben": 0}
    assert good["summary"]["turns"] == 16 and good["summary"]["votes"] == 4
