"""Every finding in words: a :class:`Violation`'s code and ``why`` with its facts
become the one-line message of a diagnostic, in the language in force.

The engine decides; this module only words what it decided. Each ``why`` key of the
engine and the replay has exactly one sentence here (one message per case, with
named placeholders, so that every language orders its own words).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from drunter_notation.errors import quoted, shown
from drunter_notation.explain.words import and_list, building_name, count_words, direction, kind_of, names, spell
from drunter_notation.i18n import N_, _, format_number, ngettext
from drunter_notation.notation.model import BUILDINGS
from drunter_notation.notation.model import square_name as sq
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.placement import DIRECTION_NAMES
from drunter_notation.rules.state import Violation
from drunter_notation.rules.votes import Counted, Tally

Facts = Mapping[str, Any]  # a violation's facts: tiles, squares, names, turns, a tally, by the case's keys


def _move(f: Facts) -> str:
    return spell(f["tile"], f["squares"])


_ONE_SQUARE = {  # by the tile's length: the length word and the count are one phrase
    2: N_("{tile} {anchor} names one square, but a double covers 2 squares: write its anchor and end square, "
          "{tile} {anchor}-…"),
    3: N_("{tile} {anchor} names one square, but a triple covers 3 squares: write its anchor and end square, "
          "{tile} {anchor}-…"),
}


def _one_square(f: Facts) -> str:
    t = f["tile"]
    return _(_ONE_SQUARE[t.length]).format(tile=t, anchor=sq(f["anchor"]))


def _bad_corner(f: Facts, why: str) -> str:
    corner = sq(f["corner"])
    if why == "not-a-corner":
        return _("{move} @{corner}: {corner} is not a corner; tracks start at {corners}").format(
            move=_move(f), corner=corner, corners=names(f["corners"]))
    if why == "corner-other-kind":
        return _("{move} @{corner}: {corner} starts the {track_kind}, not a {kind}").format(
            move=_move(f), corner=corner, track_kind=kind_of(f["track_kind"]), kind=kind_of(f["kind"]))
    return _("{move} @{corner}: the {kind} from {corner} is finished: its gang was removed on turn {turn}").format(
        move=_move(f), corner=corner, kind=kind_of(f["track_kind"]), turn=f["removed_on"])


def _gangs_stand(f: Facts) -> str:
    return ngettext("{move}: no {kind} gang reaches {square}; a {kind} tile must start next to a {kind} gang, "
                    "and the {kind} gang stands on {gangs}",
                    "{move}: no {kind} gang reaches {square}; a {kind} tile must start next to a {kind} gang, "
                    "and the {kind} gangs stand on {gangs}", len(f["gangs"])).format(
        move=_move(f), kind=kind_of(f["kind"]), square=sq(f["squares"][0]), gangs=names(f["gangs"]))


def _claim(f: Facts) -> str:
    accepted, yes, no = f["claim"]
    said = ("accepted" if accepted else "rejected") + ("" if yes is None else f" {yes}:{no}")  # DN words
    text = (_("the vote is claimed '{said}' but counts {yes}:{no} ({arithmetic}), so it is accepted")
            if f["accepted"] else
            _("the vote is claimed '{said}' but counts {yes}:{no} ({arithmetic}), so it is rejected"))
    return text.format(said=said, yes=f["yes"], no=f["no"], arithmetic=arithmetic(f["tally"]))


def arithmetic(t: Tally) -> str:
    """The sums of a tally: ``"yes 2+3 = 5, no 2+3+2 = 7"``."""
    def total(side: str) -> str:
        terms = [c.value for c in t.cards if c.side == side]
        if len(terms) < 2:
            return str(sum(terms))
        return "+".join(map(str, terms)) + f" = {sum(terms)}"
    return _("yes {yes}, no {no}").format(yes=total("yes"), no=total("no"))


def card_lines(t: Tally) -> tuple[str, ...]:
    """One line per card played: ``"Dora: JAA = 2 yes"``."""
    def said(c: Counted) -> str:
        if c.side == "yes":
            return _("{value} yes").format(value=c.value)
        if c.side == "no":
            return _("{value} no").format(value=c.value)
        return "0" if c.side == "abstain" else _("0 (not declared)")
    return tuple(f"{c.player}: {c.card} = {said(c)}" for c in t.cards)


def _laid(f: Facts) -> str:
    laid = f["laid"]
    return _("{move} overlaps the {kind} tile laid on turn {turn} at {square}").format(
        move=_move(f), kind=kind_of(laid.tile.kind_name), turn=laid.turn, square=sq(f["square"]))


def _two_tracks(f: Facts) -> str:
    # two tracks of one kind can fit the same tile: the two walls
    (first, second), (kind1, kind2) = f["fits"], f["kinds"]
    return _("{move} fits both the {kind1} from {first} and the {kind2} from {second}; "
             "write @{first} or @{second}").format(move=_move(f), kind1=kind_of(kind1), first=sq(first),
                                                   kind2=kind_of(kind2), second=sq(second))


def _choose_missing(f: Facts) -> str:
    at_reveal = f.get("at_reveal")
    if f["turn"]:
        text = (_("'choose' is missing: the {kind} track from {corner} was finished on turn {turn}") if at_reveal
                else _("'choose' is missing: the {kind} track from {corner} was finished on turn {turn}; "
                       "write 'choose' right after that turn"))
    else:
        text = (_("'choose' is missing: the {kind} track from {corner} was finished from the start") if at_reveal
                else _("'choose' is missing: the {kind} track from {corner} was finished from the start; "
                       "write 'choose' right after that turn"))
    return text.format(kind=kind_of(f["kind"]), corner=sq(f["corner"]), turn=f["turn"])


def _spent(f: Facts) -> str:
    if f["turn"] is None:
        return _("{player} no longer holds {card}: it was spent").format(player=f["player"], card=f["card"])
    return _("{player} no longer holds {card}: it was spent in the vote on turn {turn}").format(
        player=f["player"], card=f["card"], turn=f["turn"])


def _laid_twice(f: Facts) -> str:
    text = (_("{player} lays {card} twice in one ballot; each player has only one {card}") if f["times"] == 2
            else _("{player} lays {card} {times} times in one ballot; each player has only one {card}"))
    return text.format(player=f["player"], card=f["card"], times=f["times"])


def _score(f: Facts) -> str:
    goal = f["goal"]
    if goal in BUILDINGS:
        return _("{player} is claimed to score {claimed}, but scores {score} (uncovered {building})").format(
            player=f["player"], claimed=f["claimed"], score=f["score"], building=building_name(goal))
    return _("{player} is claimed to score {claimed}, but scores {score} ({goal})").format(
        player=f["player"], claimed=f["claimed"], score=f["score"], goal=goal)  # a special card's DN id


def _result(f: Facts) -> str:
    winners = f["winners"]
    values = {"claimed": quoted(f["claimed"]), "winners": _each_and(winners), "tie_break": f["tie_break"]}
    if f["tie_break"]:
        return ngettext("Result claims {claimed}, but the winner is {winners} ({tie_break})",
                        "Result claims {claimed}, but the winners are {winners} ({tie_break})",
                        len(winners)).format(**values)
    return ngettext("Result claims {claimed}, but the winner is {winners}",
                    "Result claims {claimed}, but the winners are {winners}", len(winners)).format(**values)


def _each_and(items: Sequence[object]) -> str:
    """``"a and b and c"``: each joined by the word for "and"."""
    out = str(items[0])
    for item in items[1:]:
        out = _("{items} and {last}").format(items=out, last=item)
    return out


def _box_mismatch(f: Facts) -> str:
    tile = f["tile"]
    what = {3: _("the hands together hold {held} {tile} ({kind} triples); the box has {box}"),
            2: _("the hands together hold {held} {tile} ({kind} doubles); the box has {box}"),
            1: _("the hands together hold {held} {tile} ({kind} singles); the box has {box}")}[tile.length]
    return what.format(held=f["held"], tile=tile, kind=kind_of(tile.kind_name), box=f["box"])


def _wrong_deal(f: Facts) -> str:
    return ngettext("{player} holds {held}; with {players} player each is dealt {deal}",
                    "{player} holds {held}; with {players} players each is dealt {deal}", f["players"]).format(
        player=f["player"], held=count_words(f["held"]), players=f["players"], deal=count_words(f["deal"]))


SENTENCES: dict[str, Callable[[Facts], str]] = {
    # placement (A1-A7)
    "single-two-squares": lambda f: _(
        "{tile} {anchor}-{end}: {tile} covers one square, but {anchor}-{end} names two; write {tile} {anchor}").format(
        tile=f["tile"], anchor=sq(f["anchor"]), end=sq(f["end"])),
    "one-square": _one_square,
    "not-straight": lambda f: ngettext("{tile} {anchor}-{end} is not a straight line of {n} square",
                                       "{tile} {anchor}-{end} is not a straight line of {n} squares",
                                       f["tile"].length).format(tile=f["tile"], anchor=sq(f["anchor"]),
                                                                end=sq(f["end"]), n=f["tile"].length),
    "off-board": lambda f: _("{move} runs off the board at {square}; the board spans a1 to {last}").format(
        move=_move(f), square=sq(f["square"]), last=sq(f["last"])),
    "not-a-corner": lambda f: _bad_corner(f, "not-a-corner"),
    "corner-other-kind": lambda f: _bad_corner(f, "corner-other-kind"),
    "corner-finished": lambda f: _bad_corner(f, "corner-finished"),
    "no-live-track": lambda f: _("{move}: no {kind} track is live any more (every {kind} gang has been "
                                 "removed)").format(move=_move(f), kind=kind_of(f["kind"])),
    "bridge-run": lambda f: ngettext(
        "{move} would pass under {passed} bridge field in a row ({under}) from the {kind} gang on {gang}; "
        "under this ruleset a track passes under one bridge field at a time",
        "{move} would pass under {passed} bridge fields in a row ({under}) from the {kind} gang on {gang}; "
        "under this ruleset a track passes under one bridge field at a time", f["passed"]).format(
        move=_move(f), passed=f["passed"], under=names(f["under"]), kind=kind_of(f["kind"]), gang=sq(f["gang"])),
    "other-track": lambda f: _("{move}: the {kind} from {corner} cannot take {move}; the {kind} from {other} can: "
                               "write @{other}").format(move=_move(f), kind=kind_of(f["kind"]),
                                                        corner=sq(f["corner"]), other=sq(f["other"])),
    "reversed": lambda f: _("{move} is reversed: its anchor square must touch the gang on {gang}; "
                            "write {reversed}").format(move=_move(f), gang=sq(f["gang"]),
                                                       reversed=spell(f["tile"], f["squares"][::-1])),
    "sideways": lambda f: _("{move} runs {direction} from {square}, but a tile laid there runs {expected}, away "
                            "from the gang on {gang}").format(
        move=_move(f), direction=direction(DIRECTION_NAMES[f["direction"]]), square=sq(f["squares"][0]),
        expected=direction(DIRECTION_NAMES[f["expected"]]), gang=sq(f["gang"])),
    "other-kind": lambda f: _("{move}: {square} is at the {gang_kind} gang on {gang}, but a {kind} tile only "
                              "extends a {kind}").format(move=_move(f), square=sq(f["squares"][0]),
                                                         gang_kind=kind_of(f["gang_kind"]), gang=sq(f["gang"]),
                                                         kind=kind_of(f["kind"])),
    "too-far": _gangs_stand,
    "corner": lambda f: _("{move} would cover the corner {square}; corners are never built over").format(
        move=_move(f), square=sq(f["square"])),
    "overlap": _laid,
    "two-tracks": _two_tracks,
    # turns (T1, T2, E1, X2)
    "number": lambda f: _("turn number {number} out of sequence; expected {expected}").format(
        number=f["number"], expected=f["expected"]),
    "past-last": lambda f: _("turn {number} is past the last turn a game may have, {most}").format(
        number=format_number(f["number"]), most=format_number(f["most"])),
    "not-a-player": lambda f: _("'{player}' is not a player: turn {number} belongs to {mover}").format(
        player=f["player"], number=f["number"], mover=f["mover"]),
    "not-your-turn": lambda f: _("it is not {player}'s turn: turn {number} belongs to {mover}").format(
        player=f["player"], number=f["number"], mover=f["mover"]),
    "must-place": lambda f: (ngettext("{player} passes but could lay {move} (and {others} other placements)",
                                      "{player} passes but could lay {move} (and {others} other placements)",
                                      f["others"]) if f["others"]
                             else _("{player} passes but could lay {move}")).format(
        player=f["player"], move=f["move"], others=f["others"]),
    "game-over": lambda f: (_("the game is already over: no player has a legal placement") if f["hands_known"]
                            else _("the game is already over: no tile of any kind fits anywhere")),
    "not-in-hand": lambda f: _("{player} has no {tile} left in hand").format(player=f["player"], tile=f["tile"]),
    "choose-in-base": lambda f: _("'choose' belongs to expert games ([Variant \"expert\"])"),
    "choose-twice": lambda f: _("'choose' stands here a second time"),
    "choose-early": lambda f: _("'choose' is early: no track is finished yet"),
    "choose-missing": _choose_missing,
    "choose-never": lambda f: _("'choose' is missing: the game ended, so a track was finished (at the latest "
                                "when nobody could place) and every player had to choose the counting card; "
                                "write 'choose' right after the turn that finished the first track"),
    # votes (B1-B7, X5)
    "vote-missing": lambda f: ngettext("{move} covers the toilet at {toilets}: a vote must be held",
                                       "{move} covers the toilet at {toilets}: a vote must be held",
                                       len(f["toilets"])).format(move=_move(f), toilets=names(f["toilets"])),
    "no-vote-in-expert": lambda f: _("{move} is put to a vote, but toilets are not voted on in the expert "
                                     "variant under this ruleset").format(move=_move(f)),
    "no-toilet": lambda f: _("{move} is put to a vote, but it covers no toilet").format(move=_move(f)),
    "claim-without-vote": lambda f: _("an outcome is claimed but no vote was held"),
    "voter-not-a-player": lambda f: _("'{player}' votes but is not a player").format(player=f["player"]),
    "votes-twice": lambda f: _("{player} votes twice; every player votes once").format(player=f["player"]),
    "empty-ballot": lambda f: _("{player}'s ballot is empty; every player lays at least one card").format(
        player=f["player"]),
    "missing-voter": lambda f: ngettext("{players} does not vote; every player votes once",
                                        "{players} do not vote; every player votes once",
                                        len(f["missing"])).format(players=and_list(f["missing"])),
    "order": lambda f: _("the ballots are in the order {actual}; the voting order is {expected} (the placer "
                         "first, then clockwise)").format(actual=", ".join(f["actual"]),
                                                          expected=", ".join(f["expected"])),
    "bare-jein": lambda f: _("{player}'s JEIN is not declared; write JEIN=yes or JEIN=no").format(
        player=f["player"]),
    "spent": _spent,
    "laid-twice": _laid_twice,
    "claim": _claim,
    # the record: header, setup, reveal and claims (H, D, X, E, W)
    "players-missing": lambda f: _("the [Players \"...\"] tag is missing"),
    "players-count": lambda f: _("the game needs 2 to 4 players, the Players tag names {n}").format(n=f["n"]),
    "player-twice": lambda f: _("player '{player}' is named twice in the Players tag").format(player=f["player"]),
    "tag-twice": lambda f: _("the {key} tag is given twice").format(key=f["key"]),
    "tag-slip": lambda f: _("unknown tag [{key}] is kept but not used; did you mean [{known}]?").format(
        key=f["key"], known=f["known"]),
    "variant": lambda f: _("Variant must be \"base\" or \"expert\", not \"{value}\"").format(value=f["value"]),
    "date": lambda f: _("Date must be a calendar date written YYYY-MM-DD, not \"{value}\"").format(value=f["value"]),
    "result-not-player": lambda f: _("Result names '{player}', who is not a player").format(player=f["player"]),
    "hand-not-player": lambda f: _("hand for '{player}', who is not a player").format(player=f["player"]),
    "hand-twice": lambda f: _("a second hand line for {player}").format(player=f["player"]),
    "hands-missing": lambda f: _("hands are given for some players only (missing: {missing})").format(
        missing=", ".join(f["missing"])),
    "goals-in-base": lambda f: _("goals lines belong to expert games ([Variant \"expert\"])"),
    "goals-not-player": lambda f: _("goals for '{player}', who is not a player").format(player=f["player"]),
    "goals-twice": lambda f: _("goals for '{player}', given twice").format(player=f["player"]),
    "goals-missing": lambda f: _("goals are given for some players only (missing: {missing})").format(
        missing=", ".join(f["missing"])),
    "goal-same": lambda f: _("{player} is dealt {card} twice; each player gets two different cards").format(
        player=f["player"], card=f["card"]),
    "goal-mix": lambda f: _("{player} must be dealt one special card and one building card under "
                            "{ruleset}").format(player=f["player"], ruleset=f["ruleset"]),
    "goal-dealt-twice": lambda f: _("the goal card {card} is dealt to more than one player (there is one of "
                                    "each)").format(card=f["card"]),
    "no-hands": lambda f: _("hands are not recorded: tile in hand, Legezwang, the end of the game and finished "
                            "tracks cannot be checked"),
    "end-unchecked": lambda f: _("without hands the end of the game cannot be checked"),
    "not-over": lambda f: _("the game is not over: {player} can still place a tile").format(player=f["player"]),
    "reveal-not-player": lambda f: _("reveal names '{player}', who is not a player").format(player=f["player"]),
    "reveal-twice": lambda f: _("reveal names {player} twice").format(player=f["player"]),
    "reveal-base": lambda f: _("{player} reveals '{shown}'; in the base game each player holds one building "
                               "card").format(player=f["player"], shown=f["shown"]),
    "reveal-pair": lambda f: _("{player} must reveal chosen/other in an expert game").format(player=f["player"]),
    "not-dealt": lambda f: _("{player} reveals {chosen}/{other} but was dealt {first} and {second}").format(
        player=f["player"], chosen=f["chosen"], other=f["other"], first=f["dealt"][0], second=f["dealt"][1]),
    "reveal-same": lambda f: _("{player} reveals {card} twice").format(player=f["player"], card=f["card"]),
    "reveal-missing": lambda f: _("reveal misses {missing}").format(missing=", ".join(f["missing"])),
    "card-twice": lambda f: _("the card {card} is revealed by more than one player (there is one of "
                              "each)").format(card=f["card"]),
    "score-not-player": lambda f: _("score names '{player}', who is not a player").format(player=f["player"]),
    "score": _score,
    "result": _result,
    "partial": lambda f: _("partial record (no reveal): every turn in it was checked, the end of the game "
                           "was not"),
    "result-unchecked": lambda f: _("the Result tag cannot be checked without a reveal line"),
    "score-unchecked": lambda f: _("the score line cannot be checked without a reveal line"),
    # the deal (S1)
    "uneven-box": lambda f: ngettext("this board's box cannot be dealt evenly to {players} player",
                                     "this board's box cannot be dealt evenly to {players} players",
                                     f["players"]).format(players=f["players"]),
    "wrong-deal": _wrong_deal,
    "box-mismatch": _box_mismatch,
}


HINTS = {  # what to do, where the message alone does not say
    "players-missing": N_('add e.g. [Players "Anna, Ben"] naming 2 to 4 players in seat order'),
    "hands-missing": N_("give a hand line for every player, or none at all"),
}


CITATION_NOTES = {  # where the source cited does not hold all the finding rests on
    "box-mismatch": N_("the booklet gives the tiles per length, not per kind: the split per kind is the board "
                       "file's, for schilda this project's reconstruction"),
}


def citation(v: Violation, ruleset: Ruleset | None) -> str | None:
    """Where the rule ``v`` breaks stands in ``ruleset``'s source, with a note where
    that place does not hold what the finding rests on; None without a rule. Data, the
    same in every language: :func:`..errors.said_citation` says it."""
    if not v.rule or ruleset is None:
        return None
    note = CITATION_NOTES.get(v.why)
    return ruleset.cite(v.rule) + (f"; {note}" if note else "")


def sentence(v: Violation) -> str:
    """The message of a violation, each text it quotes from the input (a name, a tag's
    value) cut to :data:`..errors.SHOWN` characters."""
    return SENTENCES[v.why]({k: x if k in _WORDED else _shown_fact(x) for k, x in v.facts.items()})


_WORDED = frozenset({"tie_break"})  # facts the project words itself (no input in them): never cut


def _shown_fact(value: Any) -> Any:
    """A fact as a sentence quotes it: a text (or a tuple of texts: names) cut to a message's share."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, tuple) and value and all(isinstance(x, str) for x in value):
        return tuple(map(shown, value))
    return value


def hint(v: Violation) -> str | None:
    """What to do about it, where the message does not say."""
    if "other" in v.facts and v.why in ("reversed", "sideways"):  # the player named the wrong track
        f = v.facts
        return _("the {kind} from {other} takes {move} as written: write @{other}").format(
            kind=kind_of(f["kind"]), other=sq(f["other"]), move=_move(f))
    text = HINTS.get(v.why)
    return None if text is None else _(text)
