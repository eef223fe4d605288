"""A seeded fuzzer for the Game API and position strings: odd values at every public door.

``dnfuzz`` feeds records to what ``drunter validate`` does; this one feeds the Python API
what a program might: input ``i`` of seed ``s``, made by ``random.Random(f"api-{s}-{i}")``
alone, is either

* a game: ``Game.new`` with now and then an odd value for one of its arguments (a list
  where a name goes, a float seed, a hand of 2**70 tiles, a path to a device), then a run
  of calls -- ``push`` of a legal move, of DN text changed as ``dnfuzz`` changes records,
  or of an odd value, with odd ``vote=``, ``jein=`` and ``keep=``; ``pop``;
  ``check_ballot``; ``set_cards``; ``vote_cards_left``; ``tiles_left``; ``ballots``; or
* a position string written by a game of ``dnfuzz``'s corpus, changed (a field of
  another string, an item dropped or moved in time, a token, a huge number, a control
  or bidi character, a bit flipped), read by ``Game.from_position`` and played on.

A finding is: an exception other than ``DnError``; a ``DnError`` whose line is not one
printable line; a position that does not read back as itself; more than
``dnfuzz.MAX_SECONDS`` of CPU. The CI slice is ``test_api_fuzz_slice_finds_nothing`` in
``tests/fuzz/test_fuzz.py``; a long run and a replay::

    python tests/fuzz/apifuzz.py --inputs 100000
    python tests/fuzz/apifuzz.py --seed 1 --only 4711
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import time
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script: dnfuzz next to it

import dnfuzz

from drunter_notation import DnError, Game

ODD = (None, 0, -1, 2**70, 1.5, float("nan"), True, b"Anna", "", " ", "Anna", "Ben", "\u202eAnna", "A,B", "a\nb",
       "\x00", "x" * 10_000, [], ["Anna"], ("Anna", "Ben"), {}, {"Anna": 1}, {"W3": -1}, {"W3": 2**70},
       {"W3": 1.5}, {"ZZ": 1}, {"W3": "3"}, object(), Path("x.toml"), "schilda", "hig-1991", "expert", "museum",
       "one-each", "JA", "JEIN", "yes", "no", {"Anna": ["JA"]}, {"Anna": "JA"}, {"Anna": [1]},
       {"Anna": ["JA"] * 100}, {"Anna": "museum"}, {"Anna": ("museum", "one-each")}, {"Date": "2024-02-30"},
       {"Event": "\r"}, {"1x": "y"}, {"Players": "A"}, range(3), "/dev/zero", "/dev/zero.toml",
       "replays/boards/tiny.toml", "x" * 5000 + ".toml")
NAMES = ("Anna", "Ben", "Cleo", "Dora")


def odd(rng: random.Random) -> object:
    """An odd value for any argument: one of :data:`ODD`, a name with a hostile character,
    a dict or a list of odd values."""
    how = rng.random()
    if how < 0.4:
        return rng.choice(ODD)
    if how < 0.6:
        return rng.choice(NAMES) + rng.choice(dnfuzz.HOSTILE)
    if how < 0.8:
        return {rng.choice((*NAMES, 1, None)): rng.choice(ODD) for _ in range(rng.randint(0, 3))}
    return [rng.choice(ODD) for _ in range(rng.randint(0, 5))]


def _text(rng: random.Random, game: Game) -> str:
    """DN text for ``push``: a legal move or a token run, changed as dnfuzz changes records."""
    moves = game.legal_moves()
    text = str(rng.choice(moves)) if moves and rng.random() < 0.6 else " ".join(
        rng.choice(dnfuzz.TOKENS) for _ in range(rng.randint(0, 6)))
    for _ in range(rng.choice((0, 1, 2))):
        text = rng.choice((dnfuzz._insert_char, dnfuzz._number, dnfuzz._token_edit, dnfuzz._truncate))(rng, text)
    return text


@lru_cache(maxsize=1)
def positions() -> tuple[str, ...]:
    """The position before every turn of every valid record of dnfuzz's corpus."""
    out = set()
    for path, text in dnfuzz.corpus():
        try:
            game = Game.from_dn(text, path)
        except DnError:
            continue
        out.add(game.position())
        while game.turn > 1:
            game.pop()
            out.add(game.position())
    return tuple(sorted(out))


def _changed_position(rng: random.Random) -> str:
    parts = rng.choice(positions()).split(" ")
    for _ in range(rng.randint(1, 3)):
        k, how = rng.randrange(1, len(parts)), rng.random()
        if how < 0.3:
            parts[k] = rng.choice(positions()).split(" ")[k]
        elif how < 0.6 and parts[k] not in ("-", "./."):  # an item dropped, doubled or moved in time
            items = parts[k].split(",")
            i = rng.randrange(len(items))
            items[i:i + 1] = rng.choice(([], [items[i]] * 2, [re.sub(r"\b\d{1,6}$", lambda m: str(
                max(0, int(m.group(0)) + rng.randint(-3, 3))), items[i])]))
            parts[k] = ",".join(items) or "-"
        elif how < 0.8:
            parts[k] = rng.choice((*dnfuzz.TOKENS, *dnfuzz.NUMBERS, "", "-", ".", "./.", "%FF", "%e2%80%ae", "made",
                                   "open", "due:a1:1", "a1:1"))
        else:
            parts[k] = rng.choice((dnfuzz._insert_char, dnfuzz._number, dnfuzz._truncate))(rng, parts[k])
    text = " ".join(parts)
    if rng.random() < 0.05:
        text = dnfuzz._flip(rng, text.encode("utf-8")).decode("utf-8", "replace")
    return text


def _new_game(rng: random.Random) -> Game:
    players: object = list(NAMES[:rng.randint(2, 4)]) if rng.random() < 0.9 else odd(rng)
    kw: dict[str, object] = {"seed": rng.randrange(1000)} if rng.random() < 0.8 else {}
    if rng.random() < 0.3:
        kw["variant"] = "expert"
    for key in ("board", "rules", "variant", "seed", "hands", "cards", "tags"):
        if rng.random() < 0.06:
            kw[key] = odd(rng)
    return Game.new(players, **kw)  # odd values on purpose


def _ballots(rng: random.Random, game: Game) -> dict[str, list[str]]:
    """Each player lays one card still held."""
    return {p: [rng.choice([card for card, n in game.vote_cards_left(p).items() if n])] for p in game.players}


def _call(rng: random.Random, game: Game) -> None:
    """One call of the game's API, mostly a legal move so that games go on."""
    how = rng.random() if rng.random() < 0.3 else 0.0
    if how < 0.45:
        moves = game.legal_moves()
        if moves:
            move = rng.choice(moves)
            vote = odd(rng) if rng.random() < 0.1 else _ballots(rng, game) if move.needs_vote else None
            jein = odd(rng) if rng.random() < 0.05 else {p: rng.choice(("yes", "no")) for p in game.players}
            game.push(move, vote=vote, jein=jein if vote is not None else None)
        else:
            game.push("choose" if game.choice_due else "pass", keep=odd(rng) if rng.random() < 0.3 else None)
    elif how < 0.65:
        game.push(_text(rng, game) if rng.random() < 0.7 else odd(rng),
                  vote=odd(rng) if rng.random() < 0.3 else None, jein=odd(rng) if rng.random() < 0.2 else None,
                  keep=odd(rng) if rng.random() < 0.2 else None)
    elif how < 0.7:
        game.pop()
    elif how < 0.75:
        game.check_ballot(odd(rng), odd(rng))
    elif how < 0.8:
        game.set_cards(odd(rng))
    elif how < 0.85:
        game.vote_cards_left(odd(rng))
    elif how < 0.9:
        game.tiles_left(odd(rng))
    else:
        game.ballots(odd(rng), odd(rng))


def _safe(e: DnError) -> None:
    line = e.format()
    if "\n" in line or not line.translate(dnfuzz.NO_BREAK).isprintable():
        raise AssertionError(f"unsafe error line {line[:160]!r}")


def run_input(seed: int, index: int) -> str:
    """Input ``index`` of ``seed``, played; what it was (for a finding's line)."""
    rng = random.Random(f"api-{seed}-{index}")
    if rng.random() < 0.5:
        what = "a game"
        try:
            game = _new_game(rng)
        except DnError as e:
            _safe(e)
            return what
    else:
        what = _changed_position(rng)
        try:
            game = Game.from_position(what)
        except DnError as e:
            _safe(e)
            return what
    for _ in range(rng.choice((1, 5, 40, 400))):
        if game.is_over() and rng.random() < 0.9:  # a few calls on a finished game, not hundreds
            break
        try:
            _call(rng, game)
        except DnError as e:
            _safe(e)
    position = game.position()
    if Game.from_position(position).position() != position:
        raise AssertionError(f"the position {position[:160]!r} does not read back as itself")
    game.is_over()
    try:
        game.result()
        game.to_dn()
    except DnError as e:
        _safe(e)
    return what


def check(seed: int, index: int) -> dnfuzz.Finding | None:
    start = time.process_time()
    try:
        run_input(seed, index)
    except Exception as e:
        return dnfuzz.Finding(seed, index, "exception", f"{type(e).__name__}: {str(e)[:200]}", "api", b"")
    spent = time.process_time() - start
    if spent > dnfuzz.MAX_SECONDS:
        return dnfuzz.Finding(seed, index, "slow", f"{spent:.2f} s of CPU", "api", b"")
    return None


def run(inputs: int, seed: int = 1) -> list[dnfuzz.Finding]:
    positions()
    return [f for f in map(lambda i: check(seed, i), range(inputs)) if f is not None]


def script(doc: str, check, run, inputs: int, argv: list[str] | None = None) -> int:
    """A fuzzer's command line: ``--inputs N --seed S``, or ``--only I`` to check one input."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=inputs)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=int, help="check this one input and print what it gives")
    args = ap.parse_args(argv)
    if args.only is not None:
        finding = check(args.seed, args.only)
        print(finding or "no finding")
        return 1 if finding else 0
    findings = run(args.inputs, args.seed)
    for f in findings:
        print(f, flush=True)
    print(f"{args.inputs:,} inputs (seed {args.seed}): {len(findings)} findings")
    return 1 if findings else 0


def main(argv: list[str] | None = None) -> int:
    return script(__doc__, check, run, 10_000, argv)


if __name__ == "__main__":
    sys.exit(main())
