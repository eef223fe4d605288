"""drunter-notation: the DN game-record notation for Drunter & Drüber, its replay
engine and rules checker, and reports.

Layers (see docs/architecture.md): ``model``/``parser``/``formatter`` know only the
notation; ``board``, ``state``, ``placement``, ``votes``, ``scoring`` and
``rulesets`` are the pure rules core; ``replay`` drives the core over a record;
``cli`` and ``report`` only read what the replay returns.
"""
__version__ = "0.1.0"
