"""`drunter adjudicate` and the dispute records of replays/disputes.

The "Done when" bullets, through the command line: the 1:1 and 0:0 votes and the
expert toilet votes under each ruleset (`validate --rules`), then `adjudicate` on
each record -- per-ruleset verdicts with the tally and citations, the legal
alternatives to an illegal placement, whether a pass was forced, what-if moves,
JSON output and the exit codes.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.adjudication import Verdict, adjudicate, agreement, all_ruleset_ids
from drunter_notation.cli import cli
from drunter_notation.cli.adjudicate import adjudicate as adjudicate_command
from drunter_notation.errors import DnError
from drunter_notation.load import judge as judge_record
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_file, parse_text

ROOT = Path(__file__).resolve().parents[1]
DISPUTES = ROOT / "replays" / "disputes"
TIE = DISPUTES / "tie-vote-1-1.dn"
ABSTAIN = DISPUTES / "all-abstain-0-0.dn"
EXPERT_VOTE = DISPUTES / "expert-toilet-vote.dn"
EXPERT_NO_VOTE = DISPUTES / "expert-toilet-no-vote.dn"
OVERLAP = DISPUTES / "illegal-overlap.dn"
PASS = DISPUTES / "forced-pass.dn"
BRIDGES = DISPUTES / "bridge-run.dn"
RULESETS = ("hig-1991", "webley-en", "deskovehry-cz")


def run(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def judge(*args: str):
    """``drunter adjudicate ...``: through the group once the command is registered."""
    if "adjudicate" in cli.commands:
        return CliRunner().invoke(cli, ["adjudicate", *map(str, args)])
    return CliRunner().invoke(adjudicate_command, [str(a) for a in args])


def validate_verdict(path: Path, rules: str) -> str:
    """``valid`` or ``error CODE`` from ``drunter validate --rules``."""
    result = run("validate", "--format", "json", "--rules", rules, path)
    data = json.loads(result.output.splitlines()[0])
    assert data["ruleset"] == rules
    errors = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert result.exit_code == (1 if errors else 0), result.output
    return "valid" if not errors else f"error {errors[0]['code']}"


# --- the dispute records themselves -----------------------------------------------

def test_every_dispute_record_is_canonical_and_gets_its_declared_verdict():
    files = sorted(DISPUTES.glob("*.dn"))
    assert {f.name for f in files} >= {"tie-vote-1-1.dn", "all-abstain-0-0.dn", "expert-toilet-vote.dn",
                                       "expert-toilet-no-vote.dn", "illegal-overlap.dn", "forced-pass.dn",
                                       "bridge-run.dn"}
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert text.startswith("# expect: "), f
        assert "Dispute" in text.split("\n[", 1)[0], f"{f.name}: say which dispute it shows"
        assert format_record(parse_text(text)) == text, f"{f.name} is not canonical (drunter fmt --write)"
    result = run("validate", "--expect", DISPUTES)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("path, expected", [
    (TIE, {"hig-1991": "valid", "deskovehry-cz": "valid", "webley-en": "error B005"}),
    (ABSTAIN, {"hig-1991": "valid", "deskovehry-cz": "valid", "webley-en": "valid"}),
    (EXPERT_VOTE, {"hig-1991": "valid", "deskovehry-cz": "error B001", "webley-en": "error B001"}),
    (EXPERT_NO_VOTE, {"hig-1991": "error B001", "deskovehry-cz": "valid", "webley-en": "valid"}),
    (OVERLAP, {r: "error A004" for r in RULESETS}),
    (PASS, {r: "valid" for r in RULESETS}),
    (BRIDGES, {"hig-1991": "error A001", "deskovehry-cz": "valid", "webley-en": "error A001"}),
], ids=lambda x: x.name if isinstance(x, Path) else "")
def test_validate_under_each_ruleset(path, expected):
    assert {r: validate_verdict(path, r) for r in RULESETS} == expected


def test_the_mirror_record_declares_webley_and_votes_nowhere():
    rec = parse_file(EXPERT_NO_VOTE)
    assert rec.tag("Rules").value == "webley-en" and rec.tag("Variant").value == "expert"
    assert all(t.placement is None or t.placement.vote is None for t in rec.turns)
    goals = [s for s in rec.setup if type(s).__name__ == "Goals"]
    assert len(goals) == len(rec.players)


# --- adjudicate: votes -------------------------------------------------------------

def test_tie_vote_all_rulesets_text():
    result = judge(TIE, "--turn", "3", "--all-rulesets")
    assert result.exit_code == 0, result.output
    out = result.output
    # the position and the move come first
    assert "Position before turn 3" in out and "@S" in out and "wc" in out
    assert "On turn: Anna; hand: W3 W2x2 W1x2 S3 S2 S1x2" in out
    assert "Move (as recorded): 3. Anna S1 c2 vote { Anna: JA, Ben: NE } -> accepted 1:1" in out
    # one block per ruleset
    assert "hig-1991 (Hans im Glück 1991, German rule booklet): LEGAL" in out
    assert "deskovehry-cz (deskovehry.cz, Czech rules page): LEGAL" in out
    assert ("webley-en (John Webley's English translation (Game Cabinet)): ILLEGAL — B005 the vote is claimed"
            " 'accepted 1:1' but counts 1:1") in out
    # the tally card by card, and the outcome rule with its option value, per ruleset
    assert out.count("Anna: JA = 1 yes") == len(all_ruleset_ids())
    assert out.count("Ben: NE = 1 no") == len(all_ruleset_ids())
    assert "yes 1, no 1 -> 1:1, accepted (vote_outcome = yes-at-least-no)" in out
    assert "yes 1, no 1 -> 1:1, rejected (vote_outcome = yes-over-no-unless-all-abstain)" in out
    assert "ties stand" in out and "a tie with yes votes is rejected" in out
    # citations in each ruleset's own source
    assert "B5 Vote outcome (HiG 1991, Spielregel B, Abs. 7–8)" in out
    assert "B5 Vote outcome (Webley, Covering Toilets, para. 2–3)" in out
    assert "B5 Vote outcome (deskovehry.cz, Jak se hlasuje o kadibudkách, odst. 5)" in out
    for rule in ("A1 Same kind (HiG 1991, Spielregel A.1)", "A2 At a gang (HiG 1991, Spielregel A.2)",
                 "A3 Orientation, overlap, edge (HiG 1991, Spielregel A.3)", "B1 Toilet vote (HiG 1991",
                 "B2 Ballots (HiG 1991", "B7 Spent cards (HiG 1991", "A4 Gang moves (HiG 1991"):
        assert rule in out
    assert "B6 Rejected tile (Webley, Covering Toilets, para. 2): the S1 goes back to Anna's hand" in out
    assert out.rstrip().splitlines()[-1] == (
        "The rulesets disagree: hig-1991, deskovehry-cz and deskovehry-cz-house accept (the vote is accepted:"
        " the tile stays), webley-en rejects (B005)")


def test_all_abstain_is_accepted_everywhere():
    result = judge(ABSTAIN, "--turn", "3", "--all-rulesets")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count(": LEGAL") == len(all_ruleset_ids())
    assert "Anna: ? = 0" in out and "Ben: ? = 0" in out
    assert "yes 0, no 0 -> 0:0, accepted (vote_outcome = yes-over-no-unless-all-abstain)" in out
    assert "yes 0, no 0 -> 0:0, accepted (vote_outcome = yes-at-least-no)" in out
    assert out.rstrip().splitlines()[-1].startswith("The rulesets agree: hig-1991, deskovehry-cz, "
                                                    "deskovehry-cz-house and webley-en all accept")


def test_expert_toilet_vote_verdicts():
    out = judge(EXPERT_VOTE, "--turn", "3", "--all-rulesets").output
    assert "hig-1991 (Hans im Glück 1991, German rule booklet): LEGAL" in out
    assert "X5 Voting in the variant (HiG 1991, not stated (inferred from Variante 2))" in out
    assert "Anna: JAA = 2 yes" in out and "yes 2, no 1 -> 2:1, accepted" in out
    assert ("webley-en (John Webley's English translation (Game Cabinet)): ILLEGAL — B001 S1 c2 is put to a"
            " vote, but toilets are not voted on") in out
    assert "X5 Voting in the variant (Webley, Variant 2): broken" in out
    assert "X5 Voting in the variant (deskovehry.cz, Rozšířená pravidla 3): broken" in out
    assert out.rstrip().splitlines()[-1] == (
        "The rulesets disagree: hig-1991 accepts (the vote is accepted: the tile stays), deskovehry-cz,"
        " deskovehry-cz-house and webley-en reject (B001)")


def test_expert_toilet_without_vote_verdicts():
    out = judge(EXPERT_NO_VOTE, "--turn", "3", "--all-rulesets").output
    assert "hig-1991 (Hans im Glück 1991, German rule booklet): ILLEGAL — B001 S1 c2 covers the toilet at c2:" \
           " a vote must be held" in out
    assert ("X5 Voting in the variant (Webley, Variant 2): it covers the toilet at c2; in the expert variant"
            " webley-en covers toilets without a vote") in out
    assert "Vote, card by card" not in out
    assert out.rstrip().splitlines()[-1] == (
        "The rulesets disagree: hig-1991 rejects (B001), deskovehry-cz, deskovehry-cz-house and webley-en accept")


def test_own_ruleset_is_the_default_and_no_agreement_line_for_one():
    out = judge(EXPERT_NO_VOTE, "--turn", "3").output
    assert "webley-en (John Webley's English translation (Game Cabinet)): LEGAL" in out
    assert "hig-1991" not in out and "The rulesets" not in out
    out = judge(TIE, "--turn", "3", "--rules", "webley-en").output
    assert "ILLEGAL — B005" in out and "hig-1991" not in out


# --- adjudicate: illegal placements, passes, what-ifs --------------------------------

def test_illegal_placement_lists_the_alternatives():
    result = judge(OVERLAP, "--turn", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "ILLEGAL — A004 S3 b1-d1 overlaps the wall tile laid on turn 1 at d1" in out
    assert "A3 Orientation, overlap, edge (HiG 1991, Spielregel A.3): broken:" in out
    assert "Legal alternatives for Anna (12):" in out
    assert "    S2 b1-c1\n" in out and "    W1 c1\n" in out
    assert "... and 2 more (--format json lists them all)" in out
    data = json.loads(judge(OVERLAP, "--turn", "3", "--format", "json").output)
    alts = data["verdicts"][0]["alternatives"]
    assert len(alts) == 12 and len(set(alts)) == 12
    # every alternative is legal: put in place of turn 3, the record validates
    rec = parse_file(OVERLAP)
    for alt in alts:
        text = OVERLAP.read_text(encoding="utf-8").replace("3. Anna S3 b1-d1", f"3. Anna {alt.split(' (')[0]}")
        t = judge_record(parse_text(text), str(OVERLAP))
        assert t.valid, (alt, [d.message for d in t.errors])
    assert rec.turns[2].placement is not None


def test_a_forced_pass():
    out = judge(PASS, "--turn", "8", "--all-rulesets").output
    assert "Move (as recorded): 8. Dora pass" in out
    assert "On turn: Dora; hand: R3 R2x2 R1" in out
    assert "river from f6: finished, gang removed on turn 6" in out
    assert "T2 Legezwang (HiG 1991, Spielregel A, Abs. 3): Dora holds no tile that has a legal placement, so" \
           " the pass is forced" in out
    assert out.count("The pass was forced: Dora had no legal placement.") == len(all_ruleset_ids())
    assert out.rstrip().endswith("all accept")


def test_a_pass_that_is_not_forced_what_if():
    result = judge(PASS, "--turn", "7", "--move", "pass")
    assert result.exit_code == 0
    out = result.output
    assert "Move (what-if, not played): 7. Cleo pass" in out
    assert "ILLEGAL — T004 Cleo passes but could lay" in out
    assert "T2 Legezwang (HiG 1991, Spielregel A, Abs. 3): broken" in out
    assert "The pass was not forced: Cleo had 6 legal placements." in out
    assert "Legal alternatives for Cleo (6):\n    S1 b2\n    S2 b2-b3\n    S3 b2-b4\n    S1 c1\n" in out


def test_trapped_gang_and_corner_are_cited():
    out = judge(PASS, "--turn", "6").output
    assert ("A5 Trapped gang (HiG 1991, Spielregel A.5): the gang of the river from f6 on f5 has no free square"
            " left to go on to: it is removed and the track is finished") in out
    out = judge(PASS, "--turn", "6", "--all-rulesets").output
    assert ("A5 Trapped gang (Webley, Laying Tiles 5): the gang of the river from f6 on f5 has no free square left"
            " to go on to: it is removed and the track is finished") in out
    assert out.rstrip().splitlines()[-1] == (
        "The rulesets agree: hig-1991, deskovehry-cz, deskovehry-cz-house and webley-en all accept (the gang of"
        " the river from f6 is removed)")
    out = judge(PASS, "--turn", "5").output
    assert "A7 Corners (HiG 1991, Spielregel A.7): the corner f6 next to it stays uncovered" in out
    assert "A5 Trapped" not in out


def test_what_if_move_with_a_vote():
    result = judge(TIE, "--turn", "3", "--all-rulesets", "--move", "S1 c2 vote { Anna: JAA, Ben: NE }")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Move (what-if, not played): 3. Anna S1 c2 vote { Anna: JAA, Ben: NE }" in out
    assert out.count(": LEGAL") == len(all_ruleset_ids())
    assert "yes 2, no 1 -> 2:1, accepted" in out
    assert out.rstrip().endswith("all accept (the vote is accepted: the tile stays)")


def test_what_if_without_claim_shows_the_rulesets_disagree_on_the_outcome():
    out = judge(TIE, "--turn", "3", "--all-rulesets", "--move", "S1 c2 vote { Anna: JA, Ben: NE }").output
    assert out.count(": LEGAL") == len(all_ruleset_ids())
    assert out.rstrip().splitlines()[-1] == (
        "The rulesets disagree: hig-1991, deskovehry-cz and deskovehry-cz-house accept (the vote is accepted:"
        " the tile stays), webley-en accepts (the vote is rejected: the tile goes back)")


def test_what_if_illegal_and_after_the_last_turn():
    out = judge(TIE, "--turn", "3", "--move", "S2 d1-e1").output
    assert "ILLEGAL — A004 S2 d1-e1 overlaps the wall tile laid on turn 2 at e1" in out
    assert "Legal alternatives for Anna (14):" in out
    assert "    S1 c2 (covers the toilet at c2: put to a vote)\n" in out
    out = judge(TIE, "--turn", "4", "--move", "R1 e6").output  # Ben, after the last recorded turn
    assert "Move (what-if, not played): 4. Ben R1 e6" in out and ": LEGAL" in out
    assert "A7 Corners" not in out  # the only corner next to e6 is the river's own, where its gang stood
    out = judge(TIE, "--turn", "4", "--move", "W1 b1").output
    assert "ILLEGAL — A" in out


def test_a_bridge_passed_and_no_hands(tmp_path):
    rec = tmp_path / "bridge.dn"
    rec.write_text("""[Players "Anna, Ben"]
[Board "tiny"]
1. Anna S2 a2-a3
2. Ben S3 b3-d3
3. Anna W2 a5-a4
4. Ben W1 b4
5. Anna W1 c4
6. Ben W1 c2 vote { Ben: JA, Anna: ? } -> accepted 1:0
7. Anna pass
""", encoding="utf-8")
    (tmp_path / "tiny.toml").write_text((ROOT / "replays" / "boards" / "tiny.toml").read_text("utf-8"), "utf-8")
    rec.write_text(rec.read_text("utf-8").replace('[Board "tiny"]', '[Board "tiny.toml"]'), "utf-8")
    out = judge(rec, "--turn", "6").output
    assert ": LEGAL" in out
    assert "A2 At a gang (HiG 1991, Spielregel A.2): its anchor c2 lies beyond the bridge field c3" in out
    assert "A6 Bridges (HiG 1991, Spielregel A.6): the track passes under the bridge field c3" in out
    assert "On turn: Ben; hand: not recorded" in out
    assert "Note: hands are not recorded" in out
    assert "T1 Turn order (HiG 1991, Spielregel A, Abs. 1–2): Ben is on turn (hands not recorded" in out
    out = judge(rec, "--turn", "7").output
    assert "Whether the pass was forced cannot be checked: the hands are not recorded." in out
    assert "T2 Legezwang" in out


def test_a_run_of_bridges_divides_the_rulesets():
    out = judge(BRIDGES, "--turn", "7", "--all-rulesets").output
    assert ("hig-1991 (Hans im Glück 1991, German rule booklet): ILLEGAL — A001 W1 c5 would pass under 2 bridge"
            " fields in a row (c3 and c4)") in out
    assert "A6 Bridges (HiG 1991, Spielregel A.6): broken:" in out
    assert "A6 Bridges (Webley, Laying Tiles 6): broken:" in out
    assert ("A6 Bridges (deskovehry.cz, Průběh hry 6): the track passes under the bridge fields c3 and c4 (a run"
            " of bridge fields, which this ruleset allows)") in out
    assert "Legal alternatives for Anna (17, every tile type tried: hands not recorded):" in out
    assert out.rstrip().splitlines()[-1] == (
        "The rulesets disagree: hig-1991 and webley-en reject (A001), deskovehry-cz and deskovehry-cz-house accept")


def test_positions_that_differ_between_rulesets_are_shown_per_ruleset(tmp_path):
    # the 1:1 vote without a claim: the S1 stays under hig-1991, goes back under webley-en
    text = TIE.read_text(encoding="utf-8").replace(" -> accepted 1:1", "") + "4. Ben W1 d1\n"
    rec = tmp_path / "noclaim.dn"
    rec.write_text(text.replace("../boards/tiny.toml", str(ROOT / "replays" / "boards" / "tiny.toml")), "utf-8")
    out = judge(rec, "--turn", "4", "--all-rulesets").output
    assert "The position before turn 4 differs between the rulesets" in out
    assert "  Position before turn 4 under hig-1991:" in out and "  Position before turn 4 under webley-en:" in out
    assert "street from a1: gang on c2 (2 tiles)" in out and "street from a1: gang on c1 (1 tile)" in out
    assert "Hands: Anna W3 W2x2 W1x2 S3 S2 S1; Ben" in out  # hig-1991: the S1 stayed on c2
    assert "Hands: Anna W3 W2x2 W1x2 S3 S2 S1x2; Ben" in out  # webley-en: it went back to hand
    out = judge(rec, "--turn", "3", "--all-rulesets").output
    assert out.rstrip().splitlines()[-1].endswith("webley-en accepts (the vote is rejected: the tile goes back)")


def test_earlier_violation_means_not_judged():
    result = judge(OVERLAP, "--turn", "4", "--move", "W1 b1", "--all-rulesets")
    assert result.exit_code == 0
    out = result.output
    assert "NOT JUDGED — the replay stops earlier, at turn 3: A004 S3 b1-d1 overlaps" in out
    assert out.rstrip().endswith("The rulesets agree: none can judge it (the replay stops at an earlier turn)")


# --- JSON and errors ----------------------------------------------------------------

def test_json_is_the_same_as_data():
    result = judge(TIE, "--turn", "3", "--all-rulesets", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["turn"] == 3 and data["what_if"] is False
    assert data["move"] == "3. Anna S1 c2 vote { Anna: JA, Ben: NE } -> accepted 1:1"
    by_id = {v["ruleset"]: v for v in data["verdicts"]}
    assert list(by_id) == all_ruleset_ids()
    hig, web = by_id["hig-1991"], by_id["webley-en"]
    assert hig["legal"] is True and hig["code"] is None and hig["status"] == "LEGAL"
    assert web["legal"] is False and web["code"] == "B005" and web["diagnostic"]["rule"] == "B5"
    assert hig["vote"]["lines"] == ["Anna: JA = 1 yes", "Ben: NE = 1 no"]
    assert hig["vote"]["accepted"] is True and web["vote"]["accepted"] is False
    assert web["vote"]["option"] == "yes-over-no-unless-all-abstain"
    assert {r["rule"]: r["citation"] for r in hig["rules"]}["B5"] == "HiG 1991, Spielregel B, Abs. 7–8"
    assert hig["player"] == "Anna" and "@S" in hig["position"]
    assert data["agreement"].startswith("The rulesets disagree:")


@pytest.mark.parametrize("args, code, text", [
    (["--turn", "9"], 2, "error[U001]: the record has no turn 9 (its turns are numbered 1 to 3)"),
    (["--turn", "5", "--move", "W1 b1"], 2, "--move may also be asked for turn 4"),
    (["--turn", "3", "--rules", "nope"], 2, "error[H004]: unknown ruleset 'nope'"),
    (["--turn", "3", "--rules", "hig-1991", "--all-rulesets"], 2, "--rules and --all-rulesets exclude each other"),
    (["--turn", "3", "--move", "S1 c2 vote { Anna: JA Ben: NE }"], 1, "--move:1:23: error[P001]:"),
    (["--turn", "3", "--move", "3. Anna S1 c2"], 1, "without turn number and player"),
    (["--turn", "3", "--move", "S1 c2 4. Ben pass"], 1, "a move is a single placement, 'pass' or 'choose', not more"),
    (["--turn", "3", "--move", ""], 1, "the move is empty"),
])
def test_errors_are_one_line_with_exit_codes(args, code, text):
    result = judge(TIE, *args)
    assert result.exit_code == code, result.output
    assert text in result.output
    assert "Traceback" not in result.output
    first, *context = result.output.strip("\n").splitlines()
    assert text in first and all(line.startswith("    ") for line in context)  # only the caret's lines


def test_unreadable_and_unparsable_records(tmp_path):
    result = judge(tmp_path / "missing.dn", "--turn", "1")
    assert result.exit_code == 2 and "error[I001]" in result.output
    bad = tmp_path / "bad.dn"
    bad.write_text('[Players "Anna, Ben"]\n1. Anna W9 b1\n', encoding="utf-8")
    result = judge(bad, "--turn", "1")
    assert result.exit_code == 1 and "error[P001]" in result.output
    first, *context = result.output.strip("\n").splitlines()
    assert "error[P001]" in first and all(line.startswith("    ") for line in context)


# --- the pure API ---------------------------------------------------------------------

def test_verdict_legality_is_validates():
    """The verdict on turn N is what `validate` says of the record cut after turn N."""
    for path in sorted(DISPUTES.glob("*.dn")):
        rec = parse_file(path)
        for n in (t.number for t in rec.turns):
            for v in adjudicate(rec, str(path), n, list(RULESETS)):
                assert isinstance(v, Verdict)
                idx = next(i for i, e in enumerate(rec.events) if getattr(e, "number", None) == n)
                cut = type(rec)(rec.tags, rec.setup, rec.events[:idx + 1])
                t = judge_record(cut, str(path), rules=v.ruleset)
                if v.legal is None:
                    assert t.errors and t.errors[0].turn != n
                else:
                    assert v.legal == t.valid, (path.name, n, v.ruleset)
                    assert v.code == (None if t.valid else t.errors[0].code)


def test_api_defaults_and_agreement():
    rec = parse_file(EXPERT_NO_VOTE)
    (v,) = adjudicate(rec, str(EXPERT_NO_VOTE), 3, None)
    assert v.ruleset == "webley-en" and v.legal
    with pytest.raises(DnError) as e:
        adjudicate(rec, str(EXPERT_NO_VOTE), 0, None)
    assert e.value.exit_code == 2
    vs = adjudicate(rec, str(EXPERT_NO_VOTE), 3, ["webley-en", "deskovehry-cz"])
    assert agreement(vs) == "The rulesets agree: webley-en and deskovehry-cz both accept"
