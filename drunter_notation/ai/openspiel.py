"""Drunter & Drüber as an OpenSpiel game: importing this module registers the Python
game ``python_drunter`` with the parameters ``players`` (2-4), ``board``, ``rules`` and
``variant``.

>>> import pyspiel
>>> import drunter_notation.ai.openspiel
>>> game = pyspiel.load_game("python_drunter", {"players": 2})
>>> game.num_players(), game.num_distinct_actions()
(2, 70)

Sequential, imperfect information, with explicit chance nodes for the deal: first
the tiles (S1; the tile type of each tile drawn, triples then doubles then singles,
each player in seat order, drawn from what is left in the box), then the building
cards (S3) or the two goal cards each (X1). After the deal the decisions are those
of :mod:`.table`, with the same action numbers as the PettingZoo environment.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple, cast

from drunter_notation.ai import need

need("numpy")  # the one-line hint when the extra is missing
need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from drunter_notation.ai import observe  # noqa: E402  (after the check for the extra)
from drunter_notation.ai.table import Phase, Table, encoding  # noqa: E402
from drunter_notation.data.boardfile import load_board  # noqa: E402
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset  # noqa: E402
from drunter_notation.deal import player_names  # noqa: E402
from drunter_notation.game import Game  # noqa: E402
from drunter_notation.notation.model import BUILDINGS, GOALS, SPECIAL_GOALS  # noqa: E402
from drunter_notation.rules.board import DEFAULT_BOARD, Board  # noqa: E402
from drunter_notation.rules.options import ExpertDeal  # noqa: E402
from drunter_notation.rules.playout import TILES  # noqa: E402
from drunter_notation.rules.state import LENGTHS, box_tiles, deal_for  # noqa: E402

SHORT_NAME = "python_drunter"
CARD_OUTCOME = len(TILES)  # chance outcome of dealing goal card g: CARD_OUTCOME + g; a tile t: t
OF_LENGTH = {k: [(i, tile) for i, tile in enumerate(TILES) if tile.length == k] for k in LENGTHS}  # ascending
CHANCE: int = pyspiel.PlayerId.CHANCE  # pyspiel's player ids: enum members that compare as ints
TERMINAL: int = pyspiel.PlayerId.TERMINAL
DEFAULTS: dict[str, int | str] = {"players": 4, "board": DEFAULT_BOARD, "rules": DEFAULT_RULESET, "variant": "base"}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME, long_name="Drunter & Drueber (drunter-notation)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4, min_num_players=2,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification=DEFAULTS)


class DealSlot(NamedTuple):
    """One chance node of the deal: a tile of ``length`` for ``seat``, or a building
    card, or goal card ``index`` (0 or 1) of ``seat``."""

    kind: Literal["tile", "card", "goal"]
    seat: int
    length_or_index: int


class DrunterGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The game for one set of parameters."""

    def __init__(self, params: dict[str, int | str] | None = None):
        params = {**DEFAULTS, **(params or {})}
        self.names = player_names(int(params["players"]))
        self.board_ref, self.variant = str(params["board"]), str(params["variant"])
        self.board = load_board(self.board_ref)
        self.rules = load_ruleset(str(params["rules"]))
        if self.variant not in ("base", "expert"):
            Game.new(self.names, variant=self.variant)  # raises the engine's own H002
        n = len(self.names)
        self.slots = _deal_slots(self.board, n, self.variant)
        self.box = box_tiles(self.board)  # the tiles to deal from
        self.enc = encoding(self.board)
        # Every turn lays a tile, passes, or has a tile voted down, which needs a no card (at most
        # 4 per player, B7); a round of turns takes at most n passes, a placement, 9 card steps and a
        # JEIN per voter; the expert choice n steps once.
        turns = sum(self.box.values()) + 4 * n
        length = turns * (11 * n + 1) + n
        info = pyspiel.GameInfo(num_distinct_actions=self.enc.size, max_chance_outcomes=CARD_OUTCOME + len(GOALS),
                                num_players=n, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=length)
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> DrunterState:
        return DrunterState(self)

    def make_py_observer(self, iig_obs_type: object = None, params: dict[str, object] | None = None) -> Observer:
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _deal_slots(board: Board, n: int, variant: str) -> tuple[DealSlot, ...]:
    """The chance nodes of the deal, in order: a tile slot per tile drawn, then a card
    slot per building card, or two goal slots per player."""
    deal = deal_for(board, n)
    assert deal is not None  # the board was loaded, so its box deals evenly
    tiles = tuple(DealSlot("tile", seat, length) for length in LENGTHS for seat in range(n)
                  for _ in range(deal[length]))
    if variant == "base":
        return tiles + tuple(DealSlot("card", seat, 0) for seat in range(n))
    return tiles + tuple(DealSlot("goal", seat, k) for seat in range(n) for k in (0, 1))


class DrunterState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A position: the deal so far (``dealt``: chance outcomes), then the :class:`Table`."""

    def __init__(self, game: DrunterGame):
        super().__init__(game)
        self.dealt: list[int] = []
        self.left = game.box.copy()  # the tiles still in the box, as the deal goes
        self.table: Table | None = None
        self.player: int = CHANCE  # current_player(), asked several times a step by OpenSpiel: kept
        self.to_deal = len(game.slots)  # chance nodes before the table is laid

    def game(self) -> DrunterGame:
        return cast(DrunterGame, self.get_game())

    def on_table(self) -> Table:
        """The table, once the deal is over."""
        if self.table is None:
            raise ValueError("the cards are still being dealt")
        return self.table

    # -- whose move --------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL  # the table's current() is None once, and only once, it is over

    def _legal_actions(self, player: int) -> list[int]:
        table = self.on_table()
        return table.legal_actions() if player == self.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game()
        kind, _seat, k = g.slots[len(self.dealt)]
        if kind == "tile":
            left = self.left
            pile = [(i, m) for i, tile in OF_LENGTH[k] if (m := left.get(tile, 0)) > 0]
            total = sum(m for _, m in pile)
            return [(i, m / total) for i, m in pile]
        gone = {GOALS[a - CARD_OUTCOME] for a in self.dealt if a >= CARD_OUTCOME}
        if kind == "card":
            pool = [b for b in BUILDINGS if b not in gone]
            return [(CARD_OUTCOME + GOALS.index(b), 1 / len(pool)) for b in pool]
        if g.rules.options.expert_deal is ExpertDeal.ANY_TWO:
            pool = [x for x in GOALS if x not in gone]
            return [(CARD_OUTCOME + GOALS.index(x), 1 / len(pool)) for x in pool]
        if k == 1:  # X1 (house rule): the second card is of the other kind than the first
            first = GOALS[self.dealt[-1] - CARD_OUTCOME]
            pool = [x for x in (SPECIAL_GOALS if first in BUILDINGS else BUILDINGS) if x not in gone]
            return [(CARD_OUTCOME + GOALS.index(x), 1 / len(pool)) for x in pool]
        specials = [x for x in SPECIAL_GOALS if x not in gone]
        buildings = [x for x in BUILDINGS if x not in gone]
        out = [(CARD_OUTCOME + GOALS.index(x), 0.5 / len(specials)) for x in specials]
        return sorted(out + [(CARD_OUTCOME + GOALS.index(x), 0.5 / len(buildings)) for x in buildings])

    # -- playing -----------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self.table is not None:
            self.table.apply(int(action))
        else:
            self._deal_one(int(action))
        if self.table is not None:
            seat = self.table.current()
            self.player = TERMINAL if seat is None else seat

    def _deal_one(self, outcome: int) -> None:
        """A chance outcome of the deal; the table is laid after the last. Raises ValueError
        for an outcome :meth:`chance_outcomes` does not offer now, as a player's illegal action does."""
        if all(outcome != a for a, _ in self.chance_outcomes()):
            raise ValueError(f"chance outcome {outcome} is not one of this deal's outcomes here")
        self.dealt.append(outcome)
        if outcome < CARD_OUTCOME:
            self.left[TILES[outcome]] -= 1
        if len(self.dealt) == self.to_deal:
            g = self.game()
            deal = _deal(g, self.dealt)
            self.table = Table(Game.new(g.names, board=g.board_ref, rules=g.rules.id, variant=g.variant,
                                        hands=deal.hands, cards=deal.cards))

    def _action_to_string(self, player: int, action: int) -> str:
        g = self.game()
        if player == CHANCE:
            return f"deal {TILES[action]}" if action < CARD_OUTCOME else f"deal {GOALS[action - CARD_OUTCOME]}"
        return g.enc.describe(action, g.board)

    def returns(self) -> list[float]:
        if self.table is None:
            return [0.0] * len(self.game().names)
        return self.table.returns()

    def __str__(self) -> str:
        if self.table is None:
            return f"dealing ({len(self.dealt)} of {len(self.game().slots)})"
        return self.table.game.position()

    # -- hidden information --------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float] | None) -> DrunterState:
        """A state ``player_id`` cannot tell from this one: the others' cards dealt anew
        (uniformly from those ``player_id`` cannot see), their face-down vote cards and
        their kept goal cards chosen anew, the rest replayed. For ISMCTS."""
        g = self.game()
        rng = np.random.default_rng(int(probability_sampler() * 2 ** 31) if callable(probability_sampler) else None)
        redo = g.new_initial_state()
        cards_from = len(g.slots) - sum(1 for s in g.slots if s[0] != "tile")
        own = {k: a for k, a in enumerate(self.dealt) if k >= cards_from and g.slots[k][1] == player_id}
        for k in range(len(self.dealt)):
            if k < cards_from or k in own:
                redo.apply_action(self.dealt[k])
            else:
                outcomes = [o for o in redo.chance_outcomes() if o[0] not in own.values()
                            or g.slots[k][0] == "tile"]
                acts, probs = zip(*outcomes, strict=True)
                redo.apply_action(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
        if self.table is None:
            return redo
        log, i = self.table.log, 0
        while i < len(log):
            seat, action, hidden, _ = log[i]
            if not hidden or seat == player_id:
                redo.apply_action(action)
                i += 1
            elif redo.on_table().phase is Phase.KEEP:  # a goal card this player holds in the new world
                redo.apply_action(int(rng.choice(redo.on_table().legal_actions())))
                i += 1
            else:  # a face-down ballot: as many cards (that is seen), drawn from the cards held
                m = 1
                while i + m < len(log) and log[i + m][0] == seat and log[i + m][1] != g.enc.end_ballot:
                    m += 1
                for a in sorted(rng.choice(redo.on_table().legal_actions(), m, replace=False)):
                    redo.apply_action(int(a))
                i += m
        return redo


class Deal(NamedTuple):
    hands: dict[str, dict[str, int]]
    cards: dict[str, str | tuple[str, ...]]


def _deal(g: DrunterGame, dealt: list[int]) -> Deal:
    """``hands=`` and ``cards=`` for Game.new from the chance outcomes."""
    hands: dict[str, dict[str, int]] = {p: {} for p in g.names}
    cards: dict[str, list[str]] = {p: [] for p in g.names}
    for (kind, seat, _), a in zip(g.slots, dealt, strict=True):
        name = g.names[seat]
        if kind == "tile":
            tile = str(TILES[a])
            hands[name][tile] = hands[name].get(tile, 0) + 1
        else:
            cards[name].append(GOALS[a - CARD_OUTCOME])
    return Deal(hands=hands, cards={p: c[0] if g.variant == "base" else tuple(c) for p, c in cards.items()})


class Observer:
    """The observer OpenSpiel asks for tensors and strings: with ``perfect_recall``
    the information state (the observation tensor plus a summary of the past, and
    as text every decision seen), otherwise the observation."""

    def __init__(self, game: DrunterGame, iig_obs_type: Any, params: dict[str, object] | None = None):
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_drunter observes as one player sees the game: public information and the "
                             "player's own (private_info SINGLE_PLAYER)")
        self.recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(observe.size(game.board, history=self.recall), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DrunterState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = observe.tensor(state.table, player, history=self.recall)

    def string_from(self, state: DrunterState, player: int) -> str:
        if state.table is None:
            g = state.game()
            seen = [str(TILES[a]) if g.slots[k][0] == "tile" else GOALS[a - CARD_OUTCOME] if g.slots[k][1] == player
                    else "?" for k, a in enumerate(state.dealt)]  # tiles are dealt open (S1), cards hidden
            return f"dealing: {' '.join(seen)}"
        if self.recall:
            return observe.history_text(state.table, player)
        return observe.text(state.table, player)


pyspiel.register_game(GAME_TYPE, DrunterGame)
