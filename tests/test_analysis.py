"""The replay analysis: hidden-card inference, playouts, turning points, the CLI."""
from __future__ import annotations

import itertools
import json
import math
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import drunter_here, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from drunter_notation.analysis import Settings, analyze_text, hypotheses, marginals
from drunter_notation.analysis.evaluate import estimate, seat_seed, shares
from drunter_notation.analysis.inference import Inference
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import DnError
from drunter_notation.explain import evidence
from drunter_notation.notation.model import BUILDINGS

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "replays" / "legal-4p.dn"

# Hand-made on the tiny test board: Anna covers a building of every type but the
# museum whenever she can, and spares the museum at d4 each time she could cover it;
# Ben covers nothing he can avoid; nobody votes either way.
FORCED = """\
[Players "Anna, Ben"]
[Board "tiny.toml"]
[Result "Anna"]

hand Anna: W3x2 W2x2 W1 S2x2 S1x2 R1
hand Ben: W2x2 W1x3 S3 R3 R2x2 R1

1. Anna W2 e1-d1
2. Ben S3 a2-a4
3. Anna S1 b4
4. Ben W1 d2
5. Anna W2 b6-c6
6. Ben W1 d3
7. Anna W1 e3
8. Ben W1 f3
9. Anna W3 c5-c3
10. Ben W2 f4-f5
11. Anna S1 b5 vote { Anna: ?, Ben: ? } -> accepted 0:0
12. Ben R1 e6
13. Anna R1 e5
14. Ben W2 c2-c1 vote { Ben: ?, Anna: ? } -> accepted 0:0

reveal Anna: museum, Ben: tavern
score Anna: 5, Ben: 0
"""


def _forced(tmp_path) -> str:
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    path = tmp_path / "forced.dn"
    path.write_text(FORCED)
    return str(path)


def test_a_player_who_covered_every_other_building_holds_the_museum(tmp_path):
    path = _forced(tmp_path)
    r = analyze_text(FORCED, path, Settings(playouts=0))
    anna = r["final"]["beliefs"]["Anna"]
    # the model keeps some doubt that Anna played at random, but no other card is near
    assert anna["museum"] > 0.7 and all(x < 0.1 for card, x in anna.items() if card != "museum")
    # the cards are distinct: what Anna holds, Ben does not
    assert r["final"]["beliefs"]["Ben"]["museum"] < 0.05
    assert r["final"]["truth"] == {"Anna": "museum", "Ben": "tavern"}
    said = " ".join(evidence.said("Anna", item) or "" for item in r["final"]["evidence"]["Anna"])
    assert "Anna spared the museum at d4 (worth 5)" in said and "Anna covered the tavern at c3" in said
    # before anyone moved, nothing is known
    assert all(x == pytest.approx(1 / 6) for x in r["turns"][0]["beliefs"]["Anna"].values())


def test_beliefs_are_distributions_after_every_turn():
    r = analyze_text(SAMPLE.read_text(), str(SAMPLE), Settings(playouts=0))
    assert [e["turn"] for e in r["turns"]] == list(range(71))
    for e in r["turns"]:
        for p in r["players"]:
            assert sum(e["beliefs"][p].values()) == pytest.approx(1)
            assert set(e["beliefs"][p]) == set(BUILDINGS)
        # each card is held by at most one player: the players' shares of it add up to at most 1
        for card in BUILDINGS:
            assert sum(e["beliefs"][p][card] for p in r["players"]) <= 1 + 1e-9
        assert e["win"] is None


def test_expert_beliefs_are_over_pairs_of_goal_cards():
    path = ROOT / "replays" / "legal-expert-4p.dn"
    r = analyze_text(path.read_text(), str(path), Settings(playouts=0))
    final = r["final"]["beliefs"]
    assert all(len(b) == 45 and sum(b.values()) == pytest.approx(1) for b in final.values())
    assert all(k.count("+") == 1 for k in final["Anna"])
    assert all(v in final[p] for p, v in r["final"]["truth"].items())


def _brute(hyps, logliks):
    """Marginals by enumerating every deal of distinct cards."""
    n = len(logliks)
    totals = [[0.0] * len(hyps) for _ in range(n)]
    for combo in itertools.product(range(len(hyps)), repeat=n):
        cards = [c for j in combo for c in hyps[j]]
        if len(set(cards)) < len(cards):
            continue
        w = math.exp(sum(logliks[i][j] for i, j in enumerate(combo)))
        for i, j in enumerate(combo):
            totals[i][j] += w
    return [[x / sum(row) for x in row] for row in totals]


@settings(max_examples=examples(30), deadline=None)
@given(data=st.data(), n=st.integers(2, 4))
def test_marginals_equal_the_sum_over_every_deal(data, n):
    hyps = hypotheses("base", load_ruleset("hig-1991"))
    logliks = [data.draw(st.lists(st.floats(-8, 8), min_size=6, max_size=6)) for _ in range(n)]
    for got, want in zip(marginals(hyps, logliks), _brute(hyps, logliks)):
        assert got == pytest.approx(want, abs=1e-9)


def test_expert_marginals_respect_the_deal():
    hyps = hypotheses("expert", load_ruleset("deskovehry-cz-house"))
    assert len(hyps) == 24  # one special and one building card each
    logliks = [[0.0] * 24, [0.0] * 24]
    logliks[0][0] = 30.0  # the first player surely holds hyps[0]
    m = marginals(hyps, logliks)
    assert m[0][0] == pytest.approx(1)
    for j, h in enumerate(hyps):
        if set(h) & set(hyps[0]):
            assert m[1][j] == pytest.approx(0, abs=1e-9)


def test_playouts_are_reproducible_from_a_seed():
    from drunter_notation import Game
    g = Game.new(["Anna", "Ben", "Cleo"], seed=9)
    post = Inference(g.players, [(b,) for b in BUILDINGS]).posterior()
    known = {p: g.cards[p][0] for p in g.players}
    a = estimate(g.state, post, 30, "7-0", given=known, policy="greedy")
    assert a == estimate(g.state, post, 30, "7-0", given=known, policy="greedy")
    assert sum(a.win) == pytest.approx(1)
    assert all(0 < se < 0.2 for se in a.se)
    assert estimate(g.state, post, 30, "7-0") != estimate(g.state, post, 30, "8-0")


def test_common_random_numbers_give_every_option_the_same_deals():
    from drunter_notation import Game
    from drunter_notation.rules.playout import Playout
    g = Game.new(["Anna", "Ben", "Cleo", "Dora"], seed=4)
    post = Inference(g.players, [(b,) for b in BUILDINGS]).posterior()
    moves = Playout.from_state(g.state).legal()
    a, b = shares(g.state, post, 40, "s", moves[0]), shares(g.state, post, 40, "s", moves[1])
    assert a != b and shares(g.state, post, 40, "s", moves[0]) == a
    assert all(sum(r) == pytest.approx(1) for r in a + b)
    # a card given for one seat: every playout deals it to that seat, and no one else holds it
    drawn = [post.sample(__import__("random").Random(k), {"Cleo": "museum"}) for k in range(50)]
    assert all(d["Cleo"][0] == "museum" and sum(c == "museum" for c, _ in d.values()) == 1 for d in drawn)


def test_win_chances_and_turning_points():
    r = analyze_text(SAMPLE.read_text(), str(SAMPLE), Settings(playouts=24, seed=1, turning_points=2,
                                                                 alternatives=3))
    assert all(sum(e["win"].values()) == pytest.approx(1, abs=1e-3) for e in r["turns"])
    assert all(0 <= e["win_se"][p] <= 0.11 for e in r["turns"] for p in r["players"])
    assert r["examined"] == 4 and r["policy"] == "inferred"
    for tp in r["turning_points"]:
        assert "played" not in tp  # the move played has one figure: "after"
        assert tp["change"] == pytest.approx(tp["after"] - tp["before"], abs=2e-3)
        assert abs(tp["change"]) > 2 * tp["change_se"]
        assert (tp["change"] < 0) == (tp["kind"] == "mistake")
        if tp["better"] is not None:
            b = tp["better"]
            assert b["gain"] > 2 * b["gain_se"] and b["move"] != tp["move"]
            assert b["gain"] == pytest.approx(b["win"] - tp["after"], abs=2e-3)


def test_no_clear_turning_point_is_said_in_words():
    from drunter_notation.cli.analyze import render_text
    r = analyze_text(SAMPLE.read_text(), str(SAMPLE), Settings(playouts=8, seed=1, turning_points=0))
    text = render_text(r)
    assert "no clear turning point: of the 0 placements examined" in text
    head = [line for line in text.splitlines() if "| win %" in line][0]
    assert head.endswith("Anna   Ben  Cleo  Dora")
    assert "(no): the tile was voted down" in text


def test_a_record_without_hands_cannot_be_analysed():
    text = '[Players "Anna, Ben"]\n\n1. Anna S2 b1-c1\n'
    with pytest.raises(DnError) as e:
        analyze_text(text, "x.dn", Settings(playouts=0))
    assert e.value.diagnostic.code == "U003"


def _drunter(*args, cwd=None):
    return subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_cli_json_lines_for_a_folder_with_a_bad_record(tmp_path):
    _forced(tmp_path)
    (tmp_path / "broken.dn").write_text("[Players \"Anna, Ben\"]\n\n1. Anna S9 b1\n")
    out = _drunter("analyze", str(tmp_path), "--format", "json", "--playouts", "0")
    assert out.returncode == 1
    assert "broken.dn:3:" in out.stderr and "error[P001]" in out.stderr and "Traceback" not in out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 1 and rows[0]["file"].endswith("forced.dn")
    assert set(rows[0]) >= {"file", "players", "turns", "final"}
    assert rows[0]["turns"][5]["turn"] == 5 and rows[0]["turns"][5]["win"] is None


def test_cli_text_and_the_same_numbers_with_jobs(tmp_path):
    path = _forced(tmp_path)
    one = _drunter("analyze", path, "--playouts", "16", "--format", "json")
    two = _drunter("analyze", path, "--playouts", "16", "--format", "json", "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    text = _drunter("analyze", path, "--playouts", "16")
    assert "Anna: museum* 94" in text.stdout and "Turning points" in text.stdout
    assert _drunter("analyze", path, "--policy", "clever").returncode == 2


@pytest.mark.slow
def test_dask_runs_the_same_function(tmp_path):
    distributed = pytest.importorskip("dask.distributed", reason="dask is an optional extra: pip install "
                                                                 "'drunter-notation[dask]'")
    _forced(tmp_path)
    shutil.copy(SAMPLE, tmp_path / "sample.dn")
    jobs = drunter_here("analyze", str(tmp_path), "--playouts", "2", "--format", "json")  # --jobs: tested above
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        dask = drunter_here("analyze", str(tmp_path), "--playouts", "2", "--format", "json",
                            "--dask", cluster.scheduler_address)
    assert jobs.returncode == 0 and dask.returncode == 0, dask.stderr
    assert dask.stdout == jobs.stdout and dask.stdout.count("\n") == 2


def test_the_posterior_over_card_and_style_is_a_joint_distribution_and_samples_deals(tmp_path):
    import random

    from drunter_notation.analysis import STYLES
    from drunter_notation.analysis.record import walk
    from drunter_notation.load import judge
    from drunter_notation.notation.parser import parse_text

    path = _forced(tmp_path)
    w = walk(judge(parse_text(FORCED, path), path, keep_states=True), Settings().model)
    assert len(w.posteriors) == len(w.turns)
    post = w.posteriors[-1]
    assert post.styles == tuple(STYLES)
    for p in post.players:
        assert sum(post.joint_of(p).values()) == pytest.approx(1)
        assert post.card_marginal(p) == pytest.approx(w.turns[-1]["beliefs"][p])
        assert post.style_marginal(p) == pytest.approx(w.turns[-1]["styles"][p])
    # every style names bots that can play it
    from drunter_notation.bots import BOTS
    assert all(name in BOTS and share > 0 for s in STYLES.values() for name, share in s.policy)
    rng = random.Random(1)
    draws = [post.sample(rng) for _ in range(2000)]
    assert all(d["Anna"][0] != d["Ben"][0] for d in draws)  # a deal: no card twice
    share = sum(d["Anna"][0] == "museum" for d in draws) / len(draws)
    assert share == pytest.approx(post.card_marginal("Anna")["museum"], abs=0.03)
    fixed = [post.sample(rng, given={"Ben": "museum"}) for _ in range(200)]
    assert all(d["Ben"][0] == "museum" and d["Anna"][0] != "museum" for d in fixed)


def test_a_turning_point_gives_the_move_played_one_figure_and_changes_that_add_up():
    from drunter_notation.report.analysis import turning_item
    tp = {"turn": 20, "player": "Dora", "move": "W1 h8", "kind": "mistake", "before": 0.2549, "before_se": 0.0295,
          "after": 0.0551, "after_se": 0.0145, "change": -0.1998, "change_se": 0.0301, "playouts": 200,
          "better": {"move": "R2 m11-l11", "win": 0.3249, "se": 0.0315, "gain": 0.2698, "gain_se": 0.0352}}
    text = turning_item(tp, "->")
    assert text == ("Dora W1 h8: mistake, 25 ± 3% with the move their style would play -> 6 ± 1% with the move "
                    "played (-19 ± 3); better: R2 m11-l11, 32 ± 3% (+26 ± 4 over the move played)")
    assert text.count("6 ± 1%") == 1  # the move played: one figure, and no other


def test_text_shows_no_favourite_while_nothing_is_known_and_full_names(tmp_path):
    from drunter_notation.cli.analyze import render_text

    long = FORCED.replace("Anna", "Annemarie-Theodora")
    path = _forced(tmp_path)
    text = render_text(analyze_text(long, path, Settings(playouts=0)))
    rows = text.splitlines()
    head = next(r for r in rows if r.startswith("turn"))
    assert "Annemarie-Theodora" in head and "Ben" in head  # names are never cut
    turn0 = next(r for r in rows if r.split()[:1] == ["0"])
    assert turn0.split() == ["0", "-", "-"]  # uniform beliefs: no favourite
    last = next(r for r in rows if r.split()[:1] == ["14"])
    assert "museum" in last  # Annemarie-Theodora's card stands out by the end
    # every mark of the table is explained, and each player has a verdict saying how sure
    assert "-: no card stands out" in text and "(no): the tile was voted down" in text
    assert "Annemarie-Theodora: very likely the museum" in text or "Annemarie-Theodora: almost surely" in text
    assert "Ben: no card stands out" in text


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.floats(0.001, 1), min_size=6, max_size=6))
def test_a_favourite_stands_out_or_is_not_shown(ws):
    from drunter_notation.analysis.inference import favourite

    probs = {b: w / sum(ws) for b, w in zip(BUILDINGS, ws)}
    fav = favourite(probs)
    ranked = sorted(probs.values(), reverse=True)
    if fav is None:
        assert ranked[0] < 2 / 6 or ranked[0] < 1.5 * ranked[1]
    else:
        assert fav[1] == ranked[0] and fav[1] >= 2 / 6 and fav[1] >= 1.5 * ranked[1]
    assert favourite({b: 1 / 6 for b in BUILDINGS}) is None


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), n=st.integers(1, 4))
def test_every_playout_shares_out_one_win_among_the_seats_and_deals_no_card_twice(seed, steps, n):
    import random

    from drunter_notation import Game
    g = Game.new(["Anna", "Ben", "Cleo", "Dora"][:max(n, 2)], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):  # a random position on the way
        if g.is_over():
            break
        moves = g.legal_moves()
        if not moves:
            g.push("pass")
            continue
        m = moves[rng.randrange(len(moves))]
        g.push(m, vote={p: ["?"] for p in g.players} if m.needs_vote else None)
    post = Inference(g.players, [(b,) for b in BUILDINGS]).posterior()
    rows = shares(g.state, post, 6, f"h-{seed}")
    assert all(sum(r) == pytest.approx(1) and min(r) >= 0 for r in rows)
    assert len({c for c, _ in post.sample(rng).values()}) == len(g.players)



@pytest.mark.skipif(sys.hash_info.width != 64, reason="compares with 64-bit CPython's hash")
@given(st.integers(min_value=0, max_value=2**64))
def test_seat_seed_is_the_float_hash_of_64_bit_cpython(seed: int) -> None:
    # wasm32's hash(float) has 31 bits: the playouts' bots are seeded from this integer instead
    x = random.Random(seed).random()
    assert seat_seed(random.Random(seed)) == hash(x)


@pytest.mark.parametrize("playouts, policy", [(100_000, "ismcts:sims=100000"), (501, "ismcts"),
                                              (2, "ismcts:sims=50001"), (100_001, "greedy"), (-1, "inferred")])
def test_the_playouts_and_the_policys_sims_are_bounded_in_total(playouts, policy):
    with pytest.raises(DnError) as refused:
        Settings(playouts=playouts, policy=policy)
    message = refused.value.diagnostic.message
    assert refused.value.diagnostic.code == "U002" and "\n" not in message
    assert f"{playouts:,}" in message and ("sims=" in message or policy in ("greedy", "inferred")), message


@pytest.mark.parametrize("playouts, policy", [(500, "ismcts"), (2, "ismcts:sims=50000"), (100_000, "greedy"),
                                              (100_000, "inferred"), (0, "ismcts:sims=100000")])
def test_settings_within_the_total_bound_are_taken(playouts, policy):
    assert Settings(playouts=playouts, policy=policy).playouts == playouts


def test_one_playout_is_refused_by_the_api_as_by_the_command():
    # a win chance from one playout would come with a standard error of 0
    with pytest.raises(DnError) as refused:
        Settings(playouts=1)
    assert refused.value.diagnostic.code == "U002" and "at least 2" in refused.value.diagnostic.message


def test_a_policy_that_is_no_bot_is_refused_before_any_work():
    with pytest.raises(DnError, match="no bot named 'nobody'"):
        Settings(policy="nobody")
