"""A game to play move by move: the face of the engine for builders, as
``chess.Board`` is python-chess's.

>>> from drunter_notation import Game
>>> g = Game.new(["Anna", "Ben"], seed=7)
>>> g.to_move
'Anna'

Every judgement is the engine's (:func:`rules.turn.play_turn`): an illegal push
raises :class:`~drunter_notation.errors.DnError` with the code and message
``drunter validate`` gives for the same turn, and leaves the game as it was.
``docs/api.md`` has the whole tour.

The class is built in three rooms, each on the one before: :mod:`.position` (the
position, its legal moves and the end), :mod:`.history` (playing and undoing) and
:mod:`.records` (making a game, and a game as a record, a DN text or a position
string); :mod:`.inputs` checks the hands and cards a caller gives.
"""
from __future__ import annotations

from drunter_notation.game.position import Result
from drunter_notation.game.records import Game
from drunter_notation.rules.placement import Move

__all__ = ["Game", "Move", "Result"]
