"""``python -m drunter_notation.cli``: the same as the ``drunter`` command."""
from drunter_notation.cli import main

main()
