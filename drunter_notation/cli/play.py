"""``drunter play``: a local web app to record and referee games at the table."""
from __future__ import annotations

import contextlib
import ipaddress
import secrets
import signal
import socket
import threading
import webbrowser
from pathlib import Path
from types import FrameType

import click

from drunter_notation.files import os_reason
from drunter_notation.i18n import N_, _


def _addresses(host: str) -> list[str]:
    """The addresses other devices can reach a server bound to ``host`` at: for a
    wildcard (0.0.0.0, ::) this machine's own, read from its interfaces (no packet
    is sent); loopback last, as the fallback without a network."""
    import ifaddr  # only for a server reachable from beyond this machine

    if host not in ("0.0.0.0", "::", ""):
        return [host]
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            addr = ipaddress.ip_address(ip.ip if isinstance(ip.ip, str) else ip.ip[0])
            if addr.is_loopback or addr.is_link_local or addr.is_multicast or addr.is_unspecified:
                continue
            if addr.version == 4 or host == "::":
                found.append(str(addr))
    return [*sorted(set(found), key=lambda a: (":" in a, a)), "127.0.0.1"]


def _url(address: str, port: int) -> str:
    return f"http://[{address}]:{port}/" if ":" in address else f"http://{address}:{port}/"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(help=N_("Record and referee games in the browser, live: one DN file per game in DIRECTORY "
                        "(default ./games), rewritten after every move. See docs/play.md."))
@click.argument("directory", default="games", type=click.Path(file_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help=N_("Address to listen on. Anything but loopback needs the printed token."))
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), metavar="PORT",
              help=N_("Port to listen on (0: any free port)."))
@click.option("--no-browser", is_flag=True, help=N_("Do not open the browser."))
def play(directory: Path, host: str, port: int, no_browser: bool) -> None:
    import uvicorn  # the server stack loads only for this command

    from drunter_notation.web.app import create_app
    from drunter_notation.web.connection import Connection

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named, so asyncio sets TCP_NODELAY on each connection (else replies wait ~40 ms for ACKs)
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # from here on connections wait in the backlog until the server takes them
    except OSError as e:  # before the folder is made: a port in use leaves nothing behind
        raise click.ClickException(_("cannot listen on {host}:{port}: {problem}").format(
            host=host, port=port, problem=os_reason(e))) from None
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        sock.close()
        raise click.ClickException(_("cannot make the games folder {folder}: {problem}").format(
            folder=directory, problem=os_reason(e))) from None
    token = None if _loopback(host) else secrets.token_urlsafe(18)
    bound = sock.getsockname()[1]
    bases = [_url(host, bound)] if token is None else [_url(a, bound) for a in _addresses(host)]
    url = bases[0] + (f"?token={token}" if token else "")
    click.echo(_("drunter play: serving the games in {folder} at {url}").format(folder=directory.resolve(), url=url),
               err=False)
    if token:
        for other in bases[1:]:
            click.echo(_("drunter play: also at {url}?token=...").format(url=other), err=True)
        click.echo(_("drunter play: listening beyond this machine: requests without the token get 403; "
                     "players join their seats from the host page"), err=True)
    click.echo(_("drunter play: Ctrl+C stops it"), err=True)
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    app = create_app(directory, token, host, bound,
                     links=tuple(b for b in bases if "//127." not in b) or tuple(bases) if token else ())

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            # a second Ctrl+C does not skip the stop's end: it is quick, and writes every journal into its record
            self.force_exit = False

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app.hub.close()  # the pages' event streams end first, else uvicorn would wait for them
            # what the bots and the coach think is dropped now (the workers killed): no request waits for it
            app.pilot.close()
            app.thinker.close()
            await super().shutdown(sockets)

    # no proxy in front: X-Forwarded-* headers are not taken for the client's address
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=3,
                            proxy_headers=False, http=Connection)  # a deadline for each request's head
    # uvicorn raises the signal that stopped it again once it has: Ctrl+C and SIGTERM are the ways to stop
    # this command, which then ends with its one line (no traceback, no "Aborted!")
    signal.signal(signal.SIGTERM, lambda *_: None)
    with contextlib.suppress(KeyboardInterrupt):
        Server(config).run(sockets=[sock])
    click.echo(_("drunter play: stopped; every game is saved in {folder}").format(folder=directory.resolve()),
               err=True)
