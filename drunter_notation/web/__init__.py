"""``drunter play``: record and referee a game at the table, live, in a browser.

:mod:`.store` keeps the games (one DN file each, rewritten atomically after every
move); :mod:`.app` is the ASGI app (Starlette) with the JSON API and the page in
``static/``, which uses only that API.
"""
