"""Built-in board files (DN-SPEC §4): one ``<id>.toml`` each, read by :mod:`drunter_notation.boardfile`."""
