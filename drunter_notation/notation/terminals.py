"""The grammar's terminals as Lark compiles them: the line reader's material, without Lark.

The line reader (:mod:`lines`) is built of these at the first parse; building Lark
itself (importing it, its LALR tables) would cost a command about 60 ms of start-up
that a valid record never needs. The table is data taken from Lark:
tests/test_parser_fast_path.py checks it equals :func:`lalr.terminal_table` of
Lark on the grammar (and prints the new table when the grammar changes).
"""
from __future__ import annotations

from typing import NamedTuple


class Terminal(NamedTuple):
    """One terminal: ``kind`` "str" (a literal, ``value`` its text) or "re" (``value`` the
    regex as written); ``regexp`` the regex Lark's lexer matches; ``flags`` the
    pattern's own flags (like "i")."""

    name: str
    kind: str
    value: str
    regexp: str
    priority: int
    flags: tuple[str, ...]


# The flags every terminal's regex is compiled with (Lark's g_regex_flags).
REGEX_FLAGS = 0

# In the order Lark's basic lexer tries them: priority, longest possible match, longest
# pattern, name.
TERMINALS = (
    Terminal('TALLY', 're', '[0-9]+[ \t\r\n]*:[ \t\r\n]*[0-9]+', '[0-9]+[ \t\r\n]*:[ \t\r\n]*[0-9]+', 3, ()),
    Terminal('TURNNO', 're', '[0-9]+[ \t\r\n]*\\.', '[0-9]+[ \t\r\n]*\\.', 3, ()),
    Terminal('CARD', 're',
             '(?:JAAA|JAA|JA|NEEE|NEE|NE|JEIN(?:[ \t]*=[ \t]*(?:yes|no))?)(?!\\w)|\\?',
             '(?:JAAA|JAA|JA|NEEE|NEE|NE|JEIN(?:[ \t]*=[ \t]*(?:yes|no))?)(?!\\w)|\\?',
             2, ()),
    Terminal('TILE', 're', '[WSR][123](?:x[0-9]+)?(?!\\w)', '[WSR][123](?:x[0-9]+)?(?!\\w)', 2, ()),
    Terminal('GOAL', 're',
             '(museum|tavern|school|townhall|firehouse|church|wirtshaus|schule|rathaus|feuerwache|kirche'
             '|all-threes|all-fours|lowest-of-each|one-each)(?![\\w-])',
             '(museum|tavern|school|townhall|firehouse|church|wirtshaus|schule|rathaus|feuerwache|kirche'
             '|all-threes|all-fours|lowest-of-each|one-each)(?![\\w-])',
             2, ()),
    Terminal('RESULT', 're', '(accepted|rejected)(?![\\w-])', '(accepted|rejected)(?![\\w-])', 2, ()),
    Terminal('SQUARE', 're', '[a-z][1-9][0-9]?(?!\\w)', '[a-z][1-9][0-9]?(?!\\w)', 2, ()),
    Terminal('STRING', 're', '"(?:[^"\\\\\n]++|\\\\["\\\\])*+"', '"(?:[^"\\\\\n]++|\\\\["\\\\])*+"', 0, ()),
    Terminal('NAME', 're', '[^\\W\\d_][\\w-]*', '[^\\W\\d_][\\w-]*', 0, ()),
    Terminal('WS', 're', '[ \t\x0c\r\n]+', '[ \t\x0c\r\n]+', 0, ()),
    Terminal('COMMENT', 're', '#[^\n]*', '#[^\n]*', 0, ()),
    Terminal('INT', 're', '[0-9]+', '[0-9]+', 0, ()),
    Terminal('CHOOSE', 'str', 'choose', 'choose', 0, ()),
    Terminal('REVEAL', 'str', 'reveal', 'reveal', 0, ()),
    Terminal('GOALS', 'str', 'goals', 'goals', 0, ()),
    Terminal('SCORE', 'str', 'score', 'score', 0, ()),
    Terminal('HAND', 'str', 'hand', 'hand', 0, ()),
    Terminal('PASS', 'str', 'pass', 'pass', 0, ()),
    Terminal('VOTE', 'str', 'vote', 'vote', 0, ()),
    Terminal('ARROW', 'str', '->', '\\->', 0, ()),
    Terminal('AT', 'str', '@', '@', 0, ()),
    Terminal('COLON', 'str', ':', ':', 0, ()),
    Terminal('COMMA', 'str', ',', ',', 0, ()),
    Terminal('LBRACE', 'str', '{', '\\{', 0, ()),
    Terminal('LBRACK', 'str', '[', '\\[', 0, ()),
    Terminal('MINUS', 'str', '-', '\\-', 0, ()),
    Terminal('RBRACE', 'str', '}', '\\}', 0, ()),
    Terminal('RSQB', 'str', ']', '\\]', 0, ()),
    Terminal('SLASH', 'str', '/', '/', 0, ()),
)
