"""Drunter & Drüber as a PettingZoo AEC environment, wrapped as PettingZoo's classic
games are.

>>> from drunter_notation.ai.pettingzoo import env
>>> e = env(players=2)
>>> e.reset(seed=7)
>>> e.agent_selection
'player_0'

Agents are the seats (``player_0`` moves first). Every decision is a step of the
agent who makes it (:mod:`.table`): a placement or pass, each vote card laid, the end
of a ballot, a JEIN declared, the goal card kept. ``reset(seed=...)`` deals as
``Game.new(..., seed=...)`` does. Observations (:mod:`.observe`) are a dict with
``observation`` and ``action_mask``; rewards come at the end (:meth:`.Table.returns`).
``docs/ai.md`` has the encodings.
"""
from __future__ import annotations

import numbers
from typing import Any, ClassVar

from drunter_notation.ai import need

need("numpy")  # the one-line hint when the extra is missing
need("pettingzoo")
need("gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import pettingzoo  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from drunter_notation.ai import observe  # noqa: E402  (after the check for the extra)
from drunter_notation.ai.table import OVER_PHASE, Table, encoding  # noqa: E402
from drunter_notation.data.boardfile import load_board  # noqa: E402
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset  # noqa: E402
from drunter_notation.deal import player_names  # noqa: E402
from drunter_notation.game import Game  # noqa: E402
from drunter_notation.game.inputs import typed  # noqa: E402
from drunter_notation.rules.board import DEFAULT_BOARD  # noqa: E402

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The wrapped environment: an illegal action ends the game with -1 for its agent
    (TerminateIllegalWrapper), actions out of range are refused, and the AEC order is
    enforced, as for PettingZoo's classic games."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(pettingzoo.AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """The environment without wrappers. ``players`` 2 to 4, ``board`` a built-in id or
    a board file, ``rules`` a ruleset id, ``variant`` ``base`` or ``expert``;
    ``render_mode`` None or ``"ansi"``. Bad values raise DnError as ``Game.new`` does."""

    metadata: ClassVar[dict[str, object]] = {"render_modes": ["ansi"], "name": "drunter_v0", "is_parallelizable": False}

    def __init__(self, players: int = 4, board: str = DEFAULT_BOARD, rules: str = DEFAULT_RULESET,
                 variant: str = "base", render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        typed(players, int, "H001", "players=", "int")  # "2" or 2.0 would fail deep inside, as a TypeError
        self.names = player_names(players)
        self.board, self.rules, self.variant = load_board(board), load_ruleset(rules).id, variant
        self.board_ref = board
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self.table: Table | None = None
        if variant not in ("base", "expert"):
            Game.new(self.names, variant=variant)  # raises the engine's own H002
        self.n_actions = n_actions = encoding(self.board).size
        n_obs = observe.size(self.board)
        self.action_spaces = {a: gymnasium.spaces.Discrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (n_obs,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (n_actions,), np.int8)}) for a in self.possible_agents}
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def on_table(self) -> Table:
        """The table being played; reset() lays it."""
        if self.table is None:
            raise RuntimeError("reset() the environment before playing it")
        return self.table

    # -- the AEC API -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game = Game.new(self.names, board=self.board_ref, rules=self.rules, variant=self.variant,
                        seed=int(self._seeds.integers(2 ** 31)))
        self.table = table = Table(game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[table.actor()]

    def observe(self, agent: str) -> dict[str, np.ndarray[tuple[int], Any]]:
        seat, table = self.possible_agents.index(agent), self.on_table()
        mask = bytearray(self.n_actions)  # item by item: faster than numpy's indexing for a few actions
        if table.current() == seat:
            for action in table.legal_actions():
                mask[action] = 1
        return {"observation": observe.tensor(table, seat), "action_mask": np.frombuffer(mask, np.int8)}

    def step(self, action: object) -> None:  # an int, or None for an agent that is done: anything else is refused
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.on_table()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):  # numpy's integers are Integral
            raise ValueError(f"action {action!r} is no action number: a legal one of 0 to {self.n_actions - 1}")
        table.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        if table.phase is OVER_PHASE:
            self.rewards = dict(zip(self.agents, table.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agents[table.actor()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``"ansi"``: the board and the position as public text (the board as
        ``drunter adjudicate`` prints it), with the decision due."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        return observe.text(self.on_table())

    def close(self) -> None:
        pass

    @property
    def game(self) -> Game:
        """The :class:`Game` being played (its record: ``env.unwrapped.game.to_dn()``)."""
        return self.on_table().game
