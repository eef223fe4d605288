"""bench/oracle.py: the exact reading's posterior keeps the deal's rule, mixes the tables by the prior,
and its paired difference of ECEs is nil between the same beliefs."""
from __future__ import annotations

import math
import random

import pytest
from conftest import load_bench


@pytest.fixture(scope="module")
def oracle():
    return load_bench("oracle")


def seats(oracle, rng: random.Random, n: int = 3):
    nb = oracle.NB
    return [{t: [[rng.uniform(-6, 0) for _ in range(nb)] for _ in range(nb)] for t in oracle.TABLES}
            for _ in range(n)]


def test_each_seats_beliefs_sum_to_one_and_a_card_pinned_to_one_seat_is_nobody_elses(oracle):
    rng = random.Random(1)
    s = seats(oracle, rng)
    for t in oracle.TABLES:  # seat 0 can only hold card 2, whatever the table
        s[0][t] = [[x if h == 2 else -math.inf for x in row] for h, row in enumerate(s[0][t])]
    b = oracle.beliefs(s, (0.3, 0.5, 0.2))
    assert all(sum(seat.values()) == pytest.approx(1) for seat in b)
    card = oracle.BUILDINGS[2]
    assert b[0][card] == pytest.approx(1)
    assert b[1][card] == 0 and b[2][card] == 0


def test_a_prior_mixes_the_tables_readings_by_how_well_each_explains_the_seats(oracle):
    rng = random.Random(2)
    per = oracle.readings(seats(oracle, rng))
    prior = (0.2, 0.3, 0.5)
    weights = [math.log(w) + total for w, (total, _) in zip(prior, per, strict=True)]
    shares = [math.exp(x - max(weights)) for x in weights]
    shares = [x / sum(shares) for x in shares]
    got = oracle.mixed(per, prior)
    for k in range(3):
        for h, card in enumerate(oracle.BUILDINGS):
            assert got[k][card] == pytest.approx(sum(sh * marg[k][h] for sh, (_, marg) in zip(shares, per, strict=True)))
    told = oracle.mixed(per, (0.0, 1.0, 0.0))  # a prior on one table alone reads that table
    assert [told[0][c] for c in oracle.BUILDINGS] == pytest.approx(per[1][1][0])


def test_the_paired_difference_of_the_same_beliefs_is_nil_and_a_worse_reading_is_worse(oracle):
    rng = random.Random(3)
    cards = oracle.BUILDINGS
    sure = {}
    for g in range(40):
        truth = rng.choice(cards)
        sure[g] = [(g, {c: 0.95 if c == truth else 0.01 for c in cards}, truth)]
    assert oracle.paired(sure, sure, boot=50) == (0.0, 0.0)
    wrong = {g: [(g, {c: 0.95 if c == cards[(cards.index(t) + 1) % 6] else 0.01 for c in cards}, t)]
             for g, [(_, _, t)] in sure.items()}
    difference, se = oracle.paired(wrong, sure, boot=50)
    assert difference == pytest.approx(0.95 - 0.05) and se == pytest.approx(0, abs=1e-9)
