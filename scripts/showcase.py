"""Seed a showcase game that reads like a club evening, for replays/club/.

The players here play as people at a table do, not at random: each steers tiles
away from the building on their own card and over the others', saves their big
vote cards for the votes that hurt them, votes JA on their own tile, abstains
(``?``) when a vote does not touch them, and the table comments on the big
moments. The record that comes out is complete and legal (the rules core plays
it); it was then read through and annotated by hand in replays/club/.

    python scripts/showcase.py --seed 3 --players "Jana, Tobias, Mira, Konrad" \\
        --event "Spieleabend im Grünen Baum" --site "Bamberg" --date 2024-02-09 > game.dn
"""
from __future__ import annotations

import random
from collections import Counter

import click

from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.model import (
    Ballot,
    Card,
    Hand,
    HandTile,
    Outcome,
    Placement,
    Record,
    Reveal,
    RevealEntry,
    Score,
    ScoreEntry,
    Tag,
    Turn,
    Vote,
    square_name,
)
from drunter_notation.rules import game, turn, votes
from drunter_notation.rules.placement import Move, legal_moves
from drunter_notation.rules.scoring import rank_players
from drunter_notation.rules.state import State
from drunter_notation.simulate import deal_goals, deal_hands


def buried(state: State, move: Move) -> list[tuple[str, int, str]]:
    """(type, value, square) of every building the move would cover."""
    return [(*state.board.buildings[sq], square_name(sq)) for sq in move.squares
            if sq in state.board.buildings and sq not in state.covered]


def harm(card: str, hits) -> int:
    """Points a player holding ``card`` loses to these buried buildings."""
    return sum(value for btype, value, _ in hits if btype == card)


def choose_move(state: State, moves: list[Move], card: str, rng: random.Random) -> Move:
    """Bury the others' buildings, spare one's own, avoid a vote that could go wrong."""
    def worth(m: Move) -> float:
        hits = buried(state, m)
        return (sum(v for _, v, _ in hits) - 4 * harm(card, hits) - 0.5 * bool(m.toilets)
                + rng.random() * 2.5)
    return max(moves, key=worth)


def ballot(state: State, voter: str, placer: str, card: str, hits, rng: random.Random) -> Ballot:
    held = [c for c in ("JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN") if state.cards[voter][c] > 0]
    lost = harm(card, hits)
    if voter == placer:
        wish = "yes"
        strength = 2 if hits else 1
    elif lost:
        wish, strength = "no", min(3, 1 + lost // 2)
    elif hits and rng.random() < 0.6:
        wish, strength = "yes", 1  # someone else's building goes: fine by me
    elif rng.random() < 0.3:
        wish, strength = "no", 1  # a track that grows is a threat to come
    else:
        return Ballot(voter, (Card("?"),))
    side = [c for c in held if votes.CARD_VALUES[c][0] == wish]
    if not side:
        if "JEIN" in held and strength > 1:
            return Ballot(voter, (Card("JEIN", wish),))
        return Ballot(voter, (Card("?"),))
    # the smallest card that does the job; a second one when it really matters
    side.sort(key=lambda c: votes.CARD_VALUES[c][1])
    first = next((c for c in side if votes.CARD_VALUES[c][1] >= strength), side[-1])
    cards = [first]
    if strength == 3 and votes.CARD_VALUES[first][1] < 3 and "JEIN" in held:
        cards.append("JEIN")
    return Ballot(voter, tuple(Card(c, wish if c == "JEIN" else None) for c in cards))


def comment(player: str, hits, accepted: bool | None, vote: Vote | None) -> tuple[str, ...]:
    """What the table says about a turn, if anything: only what everyone can see."""
    if accepted is False:
        against = [b.player for b in vote.ballots if any(votes.CARD_VALUES[c.name][0] == "no" or c.declared == "no"
                                                         for c in b.cards)]
        who = " and ".join(against)
        return (f" {who} vote{'s' if len(against) == 1 else ''} {player}'s tile down",)
    big = [h for h in hits if h[1] >= 4]
    if big:
        return (f" there goes the {big[0][0]} on {big[0][2]} ({big[0][1]} points)",)
    if vote is not None and not any(c.name == "?" for b in vote.ballots if b.player == player for c in b.cards) \
            and all(c.name == "?" for b in vote.ballots if b.player != player for c in b.cards):
        return (" nobody else cares about this toilet",)
    return ()


def play(players: tuple[str, ...], rules: str, seed: int, tags: list[Tag]) -> Record:
    rng = random.Random(seed)
    board, ruleset = load_board("schilda"), load_ruleset(rules)
    hands = deal_hands(board, players, rng)
    cards = {p: c[0] for p, c in deal_goals(ruleset, players, "base", rng).items()}
    state = turn.new_game(board, ruleset.options, players, hands, "base")
    events: list[Turn] = []
    while not game.game_over(state):
        mover, number = state.to_move, state.number + 1
        moves = legal_moves(state, mover)
        if not moves:
            turn.play_turn(state, number, mover, None)
            events.append(Turn(number, mover, None))
            continue
        move = choose_move(state, moves, cards[mover], rng)
        hits = buried(state, move)
        vote = Vote(tuple(ballot(state, v, mover, cards[v], hits, rng) for v in votes.voting_order(state, mover))
                    ) if move.needs_vote else None
        decision = turn.play_move(state, move, vote)
        outcome = None if vote is None else Outcome(decision.accepted, decision.vote.tally.yes,
                                                    decision.vote.tally.no)
        sq = move.squares
        placement = Placement(move.tile, sq[0], sq[-1] if len(sq) > 1 else None,
                              move.corner if move.needs_corner else None, vote, outcome)
        events.append(Turn(number, mover, placement,
                           comments=comment(mover, hits, decision.accepted if vote else None, vote)))
    ranking = rank_players(board, state.covered, players, cards, state.cards)
    scores = {s.player: s.score for s in ranking.standings}
    tags = [*tags, Tag("Players", ", ".join(players))]
    if rules != DEFAULT_RULESET:
        tags.append(Tag("Rules", rules))
    tags.append(Tag("Result", ", ".join(ranking.winners)))
    return Record(tags=tuple(tags),
                  setup=tuple(Hand(p, tuple(HandTile(t, n) for t, n in sorted(Counter(hands[p]).items(),
                                                                               key=lambda kv: kv[0].order())))
                              for p in players),
                  events=tuple(events),
                  reveal=Reveal(tuple(RevealEntry(p, cards[p]) for p in players)),
                  score=Score(tuple(ScoreEntry(p, scores[p]) for p in players)))


@click.command()
@click.option("--seed", type=int, required=True)
@click.option("--players", required=True, help='Names in seat order, e.g. "Jana, Tobias, Mira".')
@click.option("--rules", default=DEFAULT_RULESET)
@click.option("--event", required=True)
@click.option("--site", required=True)
@click.option("--date", required=True, help="YYYY-MM-DD")
@click.option("--round", "round_", default=None)
def main(seed, players, rules, event, site, date, round_):
    tags = [Tag("Event", event), Tag("Site", site), Tag("Date", date)] + ([Tag("Round", round_)] if round_ else [])
    click.echo(format_record(play(tuple(p.strip() for p in players.split(",")), rules, seed, tags)), nl=False)


if __name__ == "__main__":
    main()
