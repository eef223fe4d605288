"""What a record's text hides from those who read it at the table: an expert game's goal
cards, dealt secretly (X1), until the reveal. Applied to the text as on disk, valid or
not (a valid game's public record is :func:`.seats.public_dn`), and to what is said of
an error in it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from drunter_notation.errors import DnError
from drunter_notation.i18n import _

GOALS_LINE = re.compile(r"^([ \t]*goals\b)([^\n]*)", re.M)
# The player a goals line names, kept when it reads as one (a bare name or a whole quoted one, then ':').
GOALS_PLAYER = re.compile(r'[ \t]+(?:"(?:[^"\\\n]|\\["\\])*"|[^\W\d_][\w-]*)[ \t]*:')
REVEAL_LINE = re.compile(r"^[ \t]*reveal\b", re.M)


def public_text(text: str) -> str:
    """A record's text as on disk (valid or not), as anyone may read it: all but the player
    of its ``goals`` lines masked, comments too, while it has no ``reveal``."""
    def masked(line: re.Match[str]) -> str:
        player = GOALS_PLAYER.match(line[2])
        return line[1] + (player[0] if player else "") + " (secret until the reveal)"

    return text if REVEAL_LINE.search(text) else GOALS_LINE.sub(masked, text)


def masked_error(error: DnError, text: str) -> DnError:
    """``error`` as anyone may read it: when it stands on a goals line that ``text`` keeps secret,
    said without what that line holds (the cards it names, the line as context)."""
    lines, shown = text.split("\n"), public_text(text).split("\n")  # masking keeps the lines
    line = error.diagnostic.line
    if not 0 < line <= len(lines) or lines[line - 1] == shown[line - 1]:
        return error
    said = replace(error.diagnostic, message=_("a goals line that does not read; its cards are secret until the "
                                               "reveal, so mend it in the file itself"), hint=None, context=None)
    return DnError(said, path=error.path)
