"""The shipped bots where AI builders work: each bot (``random``, ``greedy``,
``cautious``, ``ismcts:sims=400``, ... as ``drunter tournament --bots`` spells them)
as an OpenSpiel bot for ``python_drunter`` (:class:`OpenSpielBot`, a ``pyspiel.Bot``)
and as a PettingZoo policy (:class:`PettingZooPolicy`: observation and action mask
in, action out), so that an agent can be trained and measured against them.

Both answer through :class:`SeatDecider`, which asks a shipped bot the seat's
question on the public table and the seat's own cards only: the hands, the tiles
laid and the vote cards spent are public (S1, B7); another seat's building or goal
cards and the vote cards laid face down before the turn-over (B2) are not read.
``tests/test_ai_bots.py`` checks it: the decisions are the same when the other
seats' secrets differ.
"""
from __future__ import annotations

from typing import Any

from drunter_notation.ai import need

need("pyspiel")  # the one-line hint when the extra is missing

import pyspiel  # noqa: E402

from drunter_notation.ai.table import Phase, Table  # noqa: E402
from drunter_notation.bots import Bot, make_bot  # noqa: E402
from drunter_notation.notation.model import CARD_NAMES, GOALS  # noqa: E402


class SeatDecider:
    """One shipped bot at one seat of a :class:`Table`; :meth:`action` is its
    answer to the decision due, when that decision is the seat's."""

    def __init__(self, spec: str, seat: int, seed: int | None = None):
        self.bot: Bot = make_bot(spec, seed)
        self.seat = seat
        self._game_id: int | None = None  # the game the bot was started for
        self._ballot: tuple[int, list[int]] | None = None  # (vote's place in the log, its cards ascending)

    def action(self, table: Table) -> int:
        if table.current() != self.seat:
            raise ValueError(f"seat {self.seat} has no decision to make now")
        game, enc = table.game, table.enc
        name = game.players[self.seat]
        own_cards = table.cards[name]
        if self._game_id != id(game):
            self.bot.start(game, name, own_cards)
            self._game_id, self._ballot = id(game), None
        if table.phase is Phase.PLACE:
            moves = game.legal_moves()
            return table.action_of(self.bot.choose_move(game, moves)) if moves else enc.passing
        if table.phase is Phase.BALLOT:
            return self._next_card(table)
        if table.phase is Phase.JEIN:
            ballots = {game.players[v]: [CARD_NAMES[c] for c in cards]
                       for v, cards in zip(table.voters, table.laid, strict=True)}
            return enc.jein_yes if self.bot.declare_joker(game, table.under_vote(), ballots) == "yes" else enc.jein_no
        if table.phase is Phase.KEEP:
            kept = self.bot.choose_goal(game, (own_cards[0], own_cards[1]))
            return enc.keep + GOALS.index(kept)
        raise ValueError("the game is over")

    def _next_card(self, table: Table) -> int:
        """A ballot is laid card by card (lowest first), then closed: the bot chooses
        the whole ballot once per vote, when its first card is due."""
        if self._ballot is None or self._ballot[0] != table.vote_start:
            cards = self.bot.cast_ballot(table.game, table.under_vote())
            self._ballot = (table.vote_start, sorted(CARD_NAMES.index(c) for c in cards))
        laid = table.laid[-1]
        chosen = self._ballot[1]
        return table.enc.lay + chosen[len(laid)] if len(laid) < len(chosen) else table.enc.end_ballot


class OpenSpielBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no types
    """A shipped bot as an OpenSpiel bot for ``python_drunter``:
    ``OpenSpielBot(game, player_id, "ismcts:sims=200", seed=1)``; use it as any
    ``pyspiel.Bot`` (``bot.step(state)``, ``evaluate_bots``)."""

    def __init__(self, game: Any, player_id: int, spec: str, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self.decider = SeatDecider(spec, player_id, seed)

    def step(self, state: Any) -> int:
        return self.decider.action(state.table)

    def restart_at(self, state: Any) -> None:
        self.decider._game_id = None  # a new game: the bot is started again at its next decision

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass  # the bot reads the table at its own decisions

    def provides_policy(self) -> bool:
        return False


class PettingZooPolicy:
    """A shipped bot as the policy of one agent of the ``drunter_v0`` environment:
    ``policy = PettingZooPolicy(env, "player_1", "greedy")``, then
    ``action = policy(observation)`` with the agent's ``env.last()`` observation
    (its ``action_mask`` is honoured). The bot sits at that agent's seat and reads
    the table it sits at, as a player would."""

    def __init__(self, env: Any, agent: str, spec: str, seed: int | None = None):
        self.env = env.unwrapped
        self.decider = SeatDecider(spec, self.env.possible_agents.index(agent), seed)

    def __call__(self, observation: Any) -> int:
        action = self.decider.action(self.env.table)
        if not observation["action_mask"][action]:
            raise ValueError(f"the bot chose action {action}, which the mask does not allow")
        return action
