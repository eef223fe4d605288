"""Rulesets as data, the rule catalogue, `drunter rules`, docs/rules.md."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import drunter_notation.data.rulesets as rs
from drunter_notation import i18n
from drunter_notation.cli.rules import rules
from drunter_notation.data.rulesets import (
    DEFAULT_RULESET,
    catalogue,
    diff,
    list_rulesets,
    load_ruleset,
    ruleset_ids,
    topics,
)
from drunter_notation.errors import DnError
from drunter_notation.rules.options import Options

ROOT = Path(__file__).resolve().parents[1]
# The rule booklets' texts are not in the repository (they are not ours to publish);
# checks against them run when this variable names a folder holding them.
SOURCES = Path(os.environ.get("DRUNTER_RULE_TEXTS", "/nonexistent"))
NO_SOURCES = ("the rule booklets' texts are not part of the repository; set DRUNTER_RULE_TEXTS to a folder"
              " holding them (the file names `drunter rules list` shows) to run this check")
SHIPPED = ["deskovehry-cz", "deskovehry-cz-house", "hig-1991", "webley-en"]
BASE_FILES = ["hig-1991", "webley-en", "deskovehry-cz"]  # files without `extends`
RULE_IDS = (["S1", "S2", "S3", "S4", "T1", "T2"] + [f"A{i}" for i in range(1, 8)]
            + [f"B{i}" for i in range(1, 8)] + ["E1", "E2", "E3"] + [f"X{i}" for i in range(1, 6)])


def invoke(*args: str):
    return CliRunner().invoke(rules, list(args))


def _normal(text: str) -> str:
    return " ".join(text.split())


# --- loading ---------------------------------------------------------------------

def test_shipped_rulesets():
    assert ruleset_ids() == SHIPPED
    assert next(r.id for r in list_rulesets()) == DEFAULT_RULESET


@pytest.mark.parametrize("rid", SHIPPED)
def test_every_ruleset_loads_with_a_section_for_every_rule(rid):
    r = load_ruleset(rid)
    assert r.id == rid and r.name and r.label and r.source.endswith(".txt")
    assert set(r.sections) == set(catalogue()) == set(RULE_IDS)
    assert all(r.sections[rule].strip() for rule in RULE_IDS)
    assert set(r.wording) == set(r.topic_sections) == set(topics())
    assert r.cite("B5").startswith(f"{r.label}, ")


def test_catalogue_matches_the_architecture_rule_ids():
    assert list(catalogue()) == RULE_IDS
    arch = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert re.findall(r"^\| ([STABEX]\d) \|", arch, re.M) == RULE_IDS
    for rule in catalogue().values():
        assert rule.title and len(rule.wording) > 40


def test_topics_name_known_rules_and_options():
    fields = {f.name for f in dataclasses.fields(Options)}
    for t in topics().values():
        assert t.rule in catalogue()
        assert t.option is None or t.option in fields
    # every option is explained by exactly one topic
    assert sorted(t.option for t in topics().values() if t.option) == sorted(fields)
    # every point on which the sources differ has a topic
    for needed in ("vote-outcome", "expert-voting", "bridge-runs", "ballot-order", "joker-order",
                   "rejected-tile", "anchor-side", "legezwang", "trap-edge", "expert-deal",
                   "finished-track", "expert-tiebreak"):
        assert needed in topics()


@pytest.mark.parametrize("rid", BASE_FILES)
def test_base_files_state_every_option(rid):
    """No base ruleset relies on a default: each choice is written down."""
    text = (ROOT / "drunter_notation" / "data" / "rulesets" / f"{rid}.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert "extends" not in data
    assert set(data["options"]) == {f.name for f in dataclasses.fields(Options)}


@pytest.mark.skipif(not SOURCES.is_dir(), reason=NO_SOURCES)
@pytest.mark.parametrize("rid", SHIPPED)
def test_source_file_exists(rid):
    assert (SOURCES / load_ruleset(rid).source).is_file()


# --- options per ruleset -----------------------------------------------------------

def test_options_per_spec():
    hig, web, cz, house = (load_ruleset(i) for i in ("hig-1991", "webley-en", "deskovehry-cz",
                                                      "deskovehry-cz-house"))
    assert hig.options.vote_outcome == "yes-at-least-no"  # ties stand
    assert cz.options.vote_outcome == "yes-at-least-no"
    assert web.options.vote_outcome == "yes-over-no-unless-all-abstain"
    assert [r.id for r in list_rulesets() if r.options.expert_voting] == ["hig-1991"]
    assert sorted(r.id for r in list_rulesets() if r.options.bridge_runs) == ["deskovehry-cz",
                                                                               "deskovehry-cz-house"]
    assert [r.id for r in list_rulesets() if r.options.expert_deal != "any-two"] == ["deskovehry-cz-house"]
    assert house.options.expert_deal == "one-special-one-building"
    assert hig.options.ballot_order == cz.options.ballot_order == "placer-first-clockwise"
    assert web.options.ballot_order == "any"
    assert not hasattr(hig.options, "joker_order")  # the order of declarations never changes a tally
    assert all(r.options.toilet_counts_for_legezwang for r in list_rulesets())
    # Webley is silent on the edge; its reason for closing a side is the German one
    assert all(r.options.trap_counts_edge for r in list_rulesets())


def test_extends_inherits_everything_but_the_differences():
    cz, house = load_ruleset("deskovehry-cz"), load_ruleset("deskovehry-cz-house")
    assert house.extends == "deskovehry-cz" and cz.extends is None
    assert (house.source, house.label) == (cz.source, cz.label)
    assert dataclasses.replace(house.options, expert_deal="any-two") == cz.options
    assert {k for k in cz.sections if cz.sections[k] != house.sections[k]} == {"X1"}
    assert {k for k in cz.wording if cz.wording[k] != house.wording[k]} == {"expert-deal"}
    assert [row.topic for row in diff(cz, house)] == ["expert-deal"]


def test_diff_of_a_ruleset_with_itself_is_empty():
    r = load_ruleset("hig-1991")
    assert diff(r, r) == []


def test_diff_rows_follow_rule_order_and_cite_both_sources():
    rows = diff(load_ruleset("hig-1991"), load_ruleset("webley-en"))
    order = list(catalogue())
    assert [order.index(r.rule) for r in rows] == sorted(order.index(r.rule) for r in rows)
    by_topic = {r.topic: r for r in rows}
    tie = by_topic["vote-outcome"]
    assert (tie.value_a, tie.value_b) == ("yes-at-least-no", "yes-over-no-unless-all-abstain")
    assert tie.cite_a.startswith("HiG 1991, Spielregel B") and tie.cite_b.startswith("Webley, Covering Toilets")
    assert (by_topic["expert-voting"].value_a, by_topic["expert-voting"].value_b) == ("true", "false")


# --- errors ----------------------------------------------------------------------

def test_unknown_ruleset_is_h004_exit_2():
    with pytest.raises(DnError) as info:
        load_ruleset("hig-1992")
    e = info.value
    assert e.diagnostic.code == "H004" and e.exit_code == 2
    assert "hig-1992" in e.format() and "hig-1991" in e.format()  # the hint names the known ones
    with pytest.raises(DnError):
        load_ruleset("catalogue")  # the catalogue is not a ruleset


@pytest.mark.parametrize("args", [("show", "nope"), ("diff", "hig-1991", "nope"), ("diff", "nope", "webley-en")])
def test_cli_unknown_ruleset(args):
    result = invoke(*args)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "error[H004]: unknown ruleset 'nope'" in result.stderr
    assert "Traceback" not in result.output


@pytest.fixture
def fake_files(monkeypatch):
    """Replace what the loader reads for some files; caches are cleared around the test."""
    files: dict[str, dict] = {}
    real = rs._read_toml

    def read(filename):
        if filename in files:
            return json.loads(json.dumps(files[filename]))  # a fresh copy, as tomllib gives
        return real(filename)

    monkeypatch.setattr(rs, "_read_toml", read)
    monkeypatch.setattr(rs, "ruleset_ids", lambda: sorted(SHIPPED + [f[:-5] for f in files]))
    rs.load_ruleset.cache_clear()
    yield files
    rs.load_ruleset.cache_clear()


def _base(rid="broken"):
    path = ROOT / "drunter_notation" / "data" / "rulesets" / "hig-1991.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["id"] = rid
    return data


@pytest.mark.parametrize("change, key", [
    (lambda d: d["options"].update(vote_outcome="majority"), "options.vote_outcome"),
    (lambda d: d["options"].update(bridge_runs="yes"), "options.bridge_runs"),
    (lambda d: d["options"].update(expert_deal=True), "options.expert_deal"),
    (lambda d: d["options"].update(tie_rule="x"), "options.tie_rule"),
    (lambda d: d["sections"].pop("A3"), "sections"),
    (lambda d: d["sections"].update(Z9="x"), "sections.Z9"),
    (lambda d: d["wording"].pop("revote"), "wording"),
    (lambda d: d["wording"].update(revote=""), "wording.revote"),
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d.pop("label"), "label"),
    (lambda d: d.update(id="other"), "id"),
    (lambda d: d.update(extends="broken"), "extends"),
    (lambda d: d.update(name=3), "name"),
    (lambda d: d.update(sections="A3"), "sections"),
])
def test_broken_ruleset_file_is_h004_naming_file_and_key(fake_files, change, key):
    data = _base()
    change(data)
    fake_files["broken.toml"] = data
    with pytest.raises(DnError) as info:
        load_ruleset("broken")
    e = info.value
    assert e.diagnostic.code == "H004" and e.exit_code == 2
    assert "broken.toml" in e.format() and f": error[H004]: {key}" in e.format()


BROKEN = [  # one change per message the loader has for a shipped file that is wrong
    lambda d: d["options"].update(vote_outcome="majority"),
    lambda d: d["options"].update(bridge_runs="yes"),
    lambda d: d["options"].update(expert_deal=True),
    lambda d: d["options"].update(tie_rule="x"),
    lambda d: d["sections"].pop("A3"),
    lambda d: (d["sections"].pop("A3"), d["sections"].pop("B1")),
    lambda d: d["sections"].update(Z9="x"),
    lambda d: d["wording"].update(nope="x"),
    lambda d: d["wording"].update(revote=""),
    lambda d: d.update(colour="red"),
    lambda d: d.pop("label"),
    lambda d: d.update(id="other"),
    lambda d: d.update(extends="broken"),
    lambda d: d.update(extends="nowhere"),
    lambda d: d.update(sections="A3"),
]


@pytest.mark.parametrize("lang", ["de", "cs"])
@pytest.mark.parametrize("change", BROKEN)
def test_a_broken_ruleset_file_is_worded_in_the_language(fake_files, change, lang):
    """The packaging bug's one line in the user's language: only the file's keys and values stay as written."""
    data = _base()
    change(data)
    fake_files["broken.toml"] = data
    said = {}
    for shown in ("en", lang):
        with i18n.using(shown), pytest.raises(DnError) as info:
            load_ruleset("broken")
        said[shown] = info.value.diagnostic.message
    key = said["en"].split(":", 1)[0]
    assert said[lang].startswith(key + ":") and said[lang] != said["en"], said


def test_a_shipped_file_that_is_not_toml_or_not_utf8_is_worded_in_the_language(monkeypatch, tmp_path):
    monkeypatch.setattr(rs, "_FILES", tmp_path)
    (tmp_path / "bad.toml").write_text("id = \n", encoding="utf-8")
    (tmp_path / "latin.toml").write_bytes(b"name = '\xe9'\n")
    with i18n.using("de"):
        for name, words in (("bad.toml", "ungültiges TOML: "), ("latin.toml", "Byte 8 ist kein UTF-8"),
                            ("none.toml", "die Datei ist nicht lesbar: ")):
            with pytest.raises(DnError) as info:
                rs._read_toml(name)
            assert words in info.value.format() and f"rulesets/{name}" in info.value.format()


def test_topic_sections_are_optional(fake_files):
    data = _base()
    del data["topic_sections"]
    fake_files["broken.toml"] = data
    r = load_ruleset("broken")
    assert r.cite_topic("revote") == r.cite("B1")


def test_extends_in_a_fake_file(fake_files):
    fake_files["mine.toml"] = {"id": "mine", "extends": "webley-en", "name": "Webley, ties stand",
                               "options": {"vote_outcome": "yes-at-least-no"}}
    r = load_ruleset("mine")
    assert r.options.vote_outcome == "yes-at-least-no" and r.options.expert_voting is False
    assert r.cite("B5") == load_ruleset("webley-en").cite("B5")


# --- the CLI -----------------------------------------------------------------------

def test_rules_list_marks_the_default():
    result = invoke("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(SHIPPED)
    assert lines[0].startswith("hig-1991") and "(default)" in lines[0]
    assert sum("(default)" in line for line in lines) == 1
    for r in list_rulesets():
        assert any(line.startswith(r.id) and r.source in line and r.name in line for line in lines)


@pytest.mark.parametrize("rid", SHIPPED)
def test_rules_show_names_every_rule_id(rid):
    result = invoke("show", rid)
    assert result.exit_code == 0
    r = load_ruleset(rid)
    for rule in catalogue().values():
        assert re.search(rf"^{rule.id}  {re.escape(rule.title)}  \({re.escape(r.cite(rule.id))}\)$",
                         result.output, re.M)
    for f in dataclasses.fields(Options):
        assert re.search(rf"^{f.name} = ", result.output, re.M)


def test_rules_show_json():
    result = invoke("show", "webley-en", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [x["id"] for x in data["rules"]] == RULE_IDS
    assert data["options"]["vote_outcome"] == "yes-over-no-unless-all-abstain"
    assert data["default"] is False and data["label"] == "Webley"
    b5 = next(x for x in data["rules"] if x["id"] == "B5")
    assert b5["citation"] == "Webley, Covering Toilets, para. 2–3"
    assert {t["id"] for t in data["topics"]} == set(topics())


def test_rules_diff_hig_webley_text():
    result = invoke("diff", "hig-1991", "webley-en", "--width", "240")
    assert result.exit_code == 0
    out = result.output
    assert re.search(r"^B5 Tie votes +\| vote_outcome = yes-at-least-no +\| vote_outcome = yes-over", out, re.M)
    assert re.search(r"^X5 Toilet votes in the +\| expert_voting = true +\| expert_voting = false$", out, re.M)
    assert "vote_outcome = yes-at-least-no" in out and "vote_outcome = yes-over-no-unless-all-abstain" in out
    assert "expert_voting = true" in out and "expert_voting = false" in out
    for cite in ("(HiG 1991, Spielregel B, Abs. 7–8)", "(Webley, Covering Toilets, para. 3)",
                 "(HiG 1991, Variante 2 (voting not mentioned))", "(Webley, Variant 2)"):
        assert cite in out


def test_rules_diff_hig_webley_json_and_markdown():
    data = json.loads(invoke("diff", "hig-1991", "webley-en", "--format", "json").output)
    assert (data["a"], data["b"]) == ("hig-1991", "webley-en")
    rows = {row["topic"]: row for row in data["rows"]}
    assert rows["vote-outcome"]["cite_a"] == "HiG 1991, Spielregel B, Abs. 7–8"
    assert rows["vote-outcome"]["cite_b"] == "Webley, Covering Toilets, para. 3"
    assert rows["expert-voting"]["cite_b"] == "Webley, Variant 2"
    md = invoke("diff", "hig-1991", "webley-en", "--format", "markdown").output
    tie = next(line for line in md.splitlines() if line.startswith("| B5 Tie votes"))
    assert "`yes-at-least-no`" in tie and "(HiG 1991, Spielregel B, Abs. 7–8)" in tie
    assert "`yes-over-no-unless-all-abstain`" in tie and "(Webley, Covering Toilets, para. 3)" in tie


def test_rules_diff_leads_with_what_changes_a_verdict():
    data = json.loads(invoke("diff", "hig-1991", "webley-en", "--format", "json").output)
    assert [row["topic"] for row in data["rows"]] == ["ballot-order", "vote-outcome", "expert-voting"]
    assert data["wording_only_not_shown"] > 0
    text = invoke("diff", "hig-1991", "webley-en", "--width", "120").output
    assert f"({data['wording_only_not_shown']} more points where only the wording" in text
    everything = json.loads(invoke("diff", "hig-1991", "webley-en", "--all", "--format", "json").output)
    topics_all = [row["topic"] for row in everything["rows"]]
    assert topics_all[:3] == ["ballot-order", "vote-outcome", "expert-voting"]
    assert len(topics_all) == 3 + data["wording_only_not_shown"] and everything["wording_only_not_shown"] == 0
    same = invoke("diff", "deskovehry-cz", "deskovehry-cz", "--format", "markdown")
    assert same.exit_code == 0 and "do not differ" in same.output


def test_rules_show_unknown_names_the_command_not_an_input_file():
    result = invoke("show", "hig1991")
    assert result.exit_code == 2
    assert result.output.startswith("drunter rules show: error[H004]: unknown ruleset 'hig1991'"
                                    " (did you mean 'hig-1991'?)")
    assert "<input>" not in result.output


# --- docs/rules.md stays in step with the data ---------------------------------------

def test_rules_md_carries_every_wording_and_place():
    doc = _normal((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    for rule in catalogue().values():
        assert f"{rule.id} — {rule.title}" in doc
        assert _normal(rule.wording) in doc, rule.id
    for r in list_rulesets():
        for section in r.sections.values():
            assert section in doc, (r.id, section)
        for topic, text in r.wording.items():
            assert _normal(text) in doc, (r.id, topic)
    assert "## Project vs. sources" in doc


@pytest.mark.skipif(not SOURCES.is_dir(), reason=NO_SOURCES)
def test_no_sentence_of_the_english_source_is_copied():
    """The project words its rules itself: no run of 8 words from Webley's text appears."""
    def words(text):
        return re.findall(r"[a-z0-9']+", text.lower())

    src = words((SOURCES / "en-webley.txt").read_text(encoding="utf-8"))
    grams = {tuple(src[i:i + 8]) for i in range(len(src) - 7)}
    texts = [rule.wording for rule in catalogue().values()]
    texts += [t for r in list_rulesets() for t in r.wording.values()]
    texts.append((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    for text in texts:
        w = words(text)
        copied = [" ".join(w[i:i + 8]) for i in range(len(w) - 7) if tuple(w[i:i + 8]) in grams]
        assert not copied, copied


def test_unreadable_file_is_h004():
    with pytest.raises(DnError) as info:
        rs._read_toml("no-such-ruleset.toml")
    assert info.value.diagnostic.code == "H004" and "no-such-ruleset.toml" in info.value.format()


def test_a_rule_its_source_does_not_place_is_cited_by_the_source_alone():
    from dataclasses import replace

    from drunter_notation.data.rulesets import load_ruleset
    rs = load_ruleset("hig-1991")
    assert rs.cite("A3").startswith("HiG 1991, ")
    assert replace(rs, sections={}).cite("A3") == rs.label  # no English "no section" in a German verdict
