"""The table core of ``drunter play``: games, seats, secret ballots, bots, hints and
mending as plain Python over a storage, with no server, thread or process in it, so
the same code runs behind the Starlette server (``web/``) and in a page's worker
under Pyodide. The entry point is :class:`.core.TableCore`; see docs/architecture.md.
"""
