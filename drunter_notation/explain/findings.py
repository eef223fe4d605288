"""Every finding in words: a :class:`Violation`'s code and ``why`` with its facts
become the one-line message of a diagnostic.

The engine decides; this module only words what it decided. Each ``why`` key of the
engine and the replay has exactly one sentence here.
"""
from __future__ import annotations

from collections.abc import Callable

from drunter_notation.explain.words import LENGTH_WORDS, and_list, count_words, names, spell, track
from drunter_notation.notation.model import BUILDINGS
from drunter_notation.notation.model import square_name as sq
from drunter_notation.rules.placement import DIRECTION_NAMES
from drunter_notation.rules.state import Violation


def _move(f) -> str:
    return spell(f["tile"], f["squares"])


def _one_square(f) -> str:
    t = f["tile"]
    return (f"{t} {sq(f['anchor'])} names one square, but a {LENGTH_WORDS[t.length][0]} covers {t.length} "
            f"squares: write its anchor and end square, {t} {sq(f['anchor'])}-…")


def _bad_corner(f, why: str) -> str:
    head = f"{_move(f)} @{sq(f['corner'])}: "
    if why == "not-a-corner":
        return head + f"{sq(f['corner'])} is not a corner; tracks start at {names(f['corners'])}"
    if why == "corner-other-kind":
        return head + f"{sq(f['corner'])} starts the {f['track_kind']}, not a {f['kind']}"
    return head + (f"the {track(f['track_kind'], f['corner'])} is finished: its gang was removed on turn "
                   f"{f['removed_on']}")


def _gangs_stand(f) -> str:
    k = f["kind"]
    stand = "gang stands" if len(f["gangs"]) == 1 else "gangs stand"
    return (f"{_move(f)}: no {k} gang reaches {sq(f['squares'][0])}; a {k} tile must start next to a {k} gang, "
            f"and the {k} {stand} on {names(f['gangs'])}")


def _claim(f) -> str:
    accepted, yes, no = f["claim"]
    said = ("accepted" if accepted else "rejected") + ("" if yes is None else f" {yes}:{no}")
    real = "accepted" if f["accepted"] else "rejected"
    return f"the vote is claimed '{said}' but counts {f['yes']}:{f['no']} ({arithmetic(f['tally'])}), so it is {real}"


def arithmetic(t) -> str:
    """The sums of a tally: ``"yes 2+3 = 5, no 2+3+2 = 7"``."""
    def total(side: str) -> str:
        terms = [c.value for c in t.cards if c.side == side]
        if len(terms) < 2:
            return str(sum(terms))
        return "+".join(map(str, terms)) + f" = {sum(terms)}"
    return f"yes {total('yes')}, no {total('no')}"


def card_lines(t) -> tuple[str, ...]:
    """One line per card played: ``"Dora: JAA = 2 yes"``."""
    def said(c) -> str:
        if c.side in ("yes", "no"):
            return f"{c.value} {c.side}"
        return "0" if c.side == "abstain" else "0 (not declared)"
    return tuple(f"{c.player}: {c.card} = {said(c)}" for c in t.cards)


def _laid(f) -> str:
    laid = f["laid"]
    return (f"{_move(f)} overlaps the {laid.tile.kind_name} tile laid on turn {laid.turn} at "
            f"{sq(f['square'])}")


SENTENCES: dict[str, Callable[[dict], str]] = {
    # placement (A1-A7)
    "single-two-squares": lambda f: (f"{f['tile']} {sq(f['anchor'])}-{sq(f['end'])}: {f['tile']} covers one square, but {sq(f['anchor'])}-{sq(f['end'])} names "
                                     f"two; write {f['tile']} {sq(f['anchor'])}"),
    "one-square": _one_square,
    "not-straight": lambda f: (f"{f['tile']} {sq(f['anchor'])}-{sq(f['end'])} is not a straight line of "
                               f"{f['tile'].length} squares"),
    "off-board": lambda f: f"{_move(f)} runs off the board at {sq(f['square'])}; the board spans a1 to {sq(f['last'])}",
    "not-a-corner": lambda f: _bad_corner(f, "not-a-corner"),
    "corner-other-kind": lambda f: _bad_corner(f, "corner-other-kind"),
    "corner-finished": lambda f: _bad_corner(f, "corner-finished"),
    "no-live-track": lambda f: (f"{_move(f)}: no {f['kind']} track is live any more (every {f['kind']} gang has "
                                "been removed)"),
    "bridge-run": lambda f: (f"{_move(f)} would pass under {f['passed']} bridge fields in a row ({names(f['under'])})"
                             f" from the {f['kind']} gang on {sq(f['gang'])}; under this ruleset a track passes "
                             "under one bridge field at a time"),
    "other-track": lambda f: (f"{_move(f)}: the {f['kind']} from {sq(f['corner'])} cannot take {_move(f)}; the {f['kind']} "
                              f"from {sq(f['other'])} can: write @{sq(f['other'])}"),
    "reversed": lambda f: (f"{_move(f)} is reversed: its anchor square must touch the gang on {sq(f['gang'])}; "
                           f"write {spell(f['tile'], f['squares'][::-1])}"),
    "sideways": lambda f: (f"{_move(f)} runs {DIRECTION_NAMES[f['direction']]} from {sq(f['squares'][0])}, but a "
                           f"tile laid there runs {DIRECTION_NAMES[f['expected']]}, away from the gang on "
                           f"{sq(f['gang'])}"),
    "other-kind": lambda f: (f"{_move(f)}: {sq(f['squares'][0])} is at the {f['gang_kind']} gang on {sq(f['gang'])},"
                             f" but a {f['kind']} tile only extends a {f['kind']}"),
    "too-far": _gangs_stand,
    "corner": lambda f: f"{_move(f)} would cover the corner {sq(f['square'])}; corners are never built over",
    "overlap": _laid,
    "two-tracks": lambda f: (f"{_move(f)} fits both "
                             + " and ".join(f"the {track(k, c)}" for c, k in zip(f["fits"], f["kinds"]))
                             + f"; write @{' or @'.join(sq(c) for c in f['fits'])}"),
    # turns (T1, T2, E1, X2)
    "number": lambda f: f"turn number {f['number']} out of sequence; expected {f['expected']}",
    "not-a-player": lambda f: f"'{f['player']}' is not a player: turn {f['number']} belongs to {f['mover']}",
    "not-your-turn": lambda f: f"it is not {f['player']}'s turn: turn {f['number']} belongs to {f['mover']}",
    "must-place": lambda f: (f"{f['player']} passes but could lay {f['move']}"
                             + (f" (and {f['others']} other placements)" if f["others"] else "")),
    "game-over": lambda f: ("the game is already over: no player has a legal placement" if f["hands_known"]
                            else "the game is already over: no tile of any kind fits anywhere"),
    "not-in-hand": lambda f: f"{f['player']} has no {f['tile']} left in hand",
    "choose-in-base": lambda f: "'choose' belongs to expert games ([Variant \"expert\"])",
    "choose-twice": lambda f: "'choose' stands here a second time",
    "choose-early": lambda f: "'choose' is early: no track is finished yet",
    "choose-missing": lambda f: (f"'choose' is missing: the {f['kind']} track from {sq(f['corner'])} was finished"
                                 + (f" on turn {f['turn']}" if f["turn"] else " from the start")
                                 + ("" if f.get("at_reveal") else "; write 'choose' right after that turn")),
    "choose-never": lambda f: ("'choose' is missing: the game ended, so a track was finished (at the latest when "
                               "nobody could place) and every player had to choose the counting card; write "
                               "'choose' right after the turn that finished the first track"),
    # votes (B1-B7, X5)
    "vote-missing": lambda f: f"{_move(f)} covers the toilet at {names(f['toilets'])}: a vote must be held",
    "no-vote-in-expert": lambda f: (f"{_move(f)} is put to a vote, but toilets are not voted on in the expert "
                                    "variant under this ruleset"),
    "no-toilet": lambda f: f"{_move(f)} is put to a vote, but it covers no toilet",
    "claim-without-vote": lambda f: "an outcome is claimed but no vote was held",
    "voter-not-a-player": lambda f: f"'{f['player']}' votes but is not a player",
    "votes-twice": lambda f: f"{f['player']} votes twice; every player votes once",
    "empty-ballot": lambda f: f"{f['player']}'s ballot is empty; every player lays at least one card",
    "missing-voter": lambda f: (f"{and_list(f['missing'])} {'does' if len(f['missing']) == 1 else 'do'} not vote; "
                                "every player votes once"),
    "order": lambda f: (f"the ballots are in the order {', '.join(f['actual'])}; the voting order is "
                        f"{', '.join(f['expected'])} (the placer first, then clockwise)"),
    "bare-jein": lambda f: f"{f['player']}'s JEIN is not declared; write JEIN=yes or JEIN=no",
    "spent": lambda f: (f"{f['player']} no longer holds {f['card']}: it was spent"
                        + (f" in the vote on turn {f['turn']}" if f["turn"] is not None else "")),
    "laid-twice": lambda f: (f"{f['player']} lays {f['card']} {'twice' if f['times'] == 2 else str(f['times']) + ' times'}"
                             f" in one ballot; each player has only one {f['card']}"),
    "claim": _claim,
    # the record: header, setup, reveal and claims (H, D, X, E, W)
"players-missing": lambda f: "the [Players \"...\"] tag is missing",
    "players-count": lambda f: f"the game needs 2 to 4 players, the Players tag names {f['n']}",
    "player-twice": lambda f: f"player '{f['player']}' is named twice in the Players tag",
    "tag-twice": lambda f: f"the {f['key']} tag is given twice",
    "tag-slip": lambda f: f"unknown tag [{f['key']}] is kept but not used; did you mean [{f['known']}]?",
    "variant": lambda f: f"Variant must be \"base\" or \"expert\", not \"{f['value']}\"",
    "date": lambda f: f"Date must be a calendar date written YYYY-MM-DD, not \"{f['value']}\"",
    "result-not-player": lambda f: f"Result names '{f['player']}', who is not a player",
    "hand-not-player": lambda f: f"hand for '{f['player']}', who is not a player",
    "hand-twice": lambda f: f"a second hand line for {f['player']}",
    "hands-missing": lambda f: f"hands are given for some players only (missing: {', '.join(f['missing'])})",
    "goals-in-base": lambda f: "goals lines belong to expert games ([Variant \"expert\"])",
    "goals-not-player": lambda f: f"goals for '{f['player']}', who is not a player",
    "goals-twice": lambda f: f"goals for '{f['player']}', given twice",
    "goals-missing": lambda f: f"goals are given for some players only (missing: {', '.join(f['missing'])})",
    "goal-same": lambda f: f"{f['player']} is dealt {f['card']} twice; each player gets two different cards",
    "goal-mix": lambda f: (f"{f['player']} must be dealt one special card and one building card under "
                           f"{f['ruleset']}"),
    "goal-dealt-twice": lambda f: (f"the goal card {f['card']} is dealt to more than one player "
                                   "(there is one of each)"),
    "no-hands": lambda f: ("hands are not recorded: tile in hand, Legezwang, the end of the game and finished "
                           "tracks cannot be checked"),
    "end-unchecked": lambda f: "without hands the end of the game cannot be checked",
    "not-over": lambda f: f"the game is not over: {f['player']} can still place a tile",
    "reveal-not-player": lambda f: f"reveal names '{f['player']}', who is not a player",
    "reveal-twice": lambda f: f"reveal names {f['player']} twice",
    "reveal-base": lambda f: (f"{f['player']} reveals '{f['shown']}'; in the base game each player holds one "
                              "building card"),
    "reveal-pair": lambda f: f"{f['player']} must reveal chosen/other in an expert game",
    "not-dealt": lambda f: (f"{f['player']} reveals {f['chosen']}/{f['other']} but was dealt {f['dealt'][0]} "
                            f"and {f['dealt'][1]}"),
    "reveal-same": lambda f: f"{f['player']} reveals {f['card']} twice",
    "reveal-missing": lambda f: f"reveal misses {', '.join(f['missing'])}",
    "card-twice": lambda f: f"the card {f['card']} is revealed by more than one player (there is one of each)",
    "score-not-player": lambda f: f"score names '{f['player']}', who is not a player",
    "score": lambda f: (f"{f['player']} is claimed to score {f['claimed']}, but scores {f['score']} "
                        f"({'uncovered ' + f['goal'] if f['goal'] in BUILDINGS else f['goal']})"),
    "result": lambda f: (f"Result claims {f['claimed']!r}, but the winner is {' and '.join(f['winners'])}"
                         + (f" ({f['tie_break']})" if f["tie_break"] else "")),
    "partial": lambda f: ("partial record (no reveal): every turn in it was checked, the end of the game "
                          "was not"),
    "result-unchecked": lambda f: "the Result tag cannot be checked without a reveal line",
    "score-unchecked": lambda f: "the score line cannot be checked without a reveal line",
    # the deal (S1)
    "uneven-box": lambda f: f"this board's box cannot be dealt evenly to {f['players']} players",
    "wrong-deal": lambda f: (f"{f['player']} holds {count_words(f['held'])}; with {f['players']} players each is "
                             f"dealt {count_words(f['deal'])}"),
    "box-mismatch": lambda f: (f"the hands together hold {f['held']} {f['tile']} ({f['tile'].kind_name} "
                               f"{LENGTH_WORDS[f['tile'].length][1]}); the box has {f['box']}"),
}


HINTS = {  # what to do, where the message alone does not say
    "players-missing": 'add e.g. [Players "Anna, Ben"] naming 2 to 4 players in seat order',
    "hands-missing": "give a hand line for every player, or none at all",
}


CITATION_NOTES = {  # where the source cited does not hold all the finding rests on
    "box-mismatch": "the booklet gives the tiles per length, not per kind: the split per kind is the board file's, "
                    "for schilda this project's reconstruction",
}


def citation(v: Violation, ruleset) -> str | None:
    """Where the rule ``v`` breaks stands in ``ruleset``'s source, with a note where
    that place does not hold what the finding rests on; None without a rule."""
    if not v.rule or ruleset is None:
        return None
    note = CITATION_NOTES.get(v.why)
    return ruleset.cite(v.rule) + (f"; {note}" if note else "")


def sentence(v: Violation) -> str:
    """The message of a violation."""
    return SENTENCES[v.why](v.facts)


def hint(v: Violation) -> str | None:
    """What to do about it, where the message does not say."""
    if "other" in v.facts and v.why in ("reversed", "sideways"):  # the player named the wrong track
        f = v.facts
        return f"the {f['kind']} from {sq(f['other'])} takes {_move(f)} as written: write @{sq(f['other'])}"
    return HINTS.get(v.why)
