"""What a foreign web page could make a player's browser send, refused before any route runs.

A page on another site can make the browser send requests to ``drunter play``:
"simple" cross-site POSTs (form-encoded or ``text/plain``, no preflight) and, by
DNS rebinding, any request under a name of its own that resolves to this machine.
Three checks keep both out, and none needs anything from scripts or curl, which
send no ``Origin``:

* ``Host`` must name this server: ``localhost``, a loopback address or the address
  it listens on (any IP address when it listens on all of them: a rebinding page
  always sends its own *name*), with the port it listens on; else 400.
* A request that carries an ``Origin`` must carry this server's own, the
  ``http://`` of its ``Host``; else 403 (WebSocket handshakes too).
* A request that changes something (POST, PUT, PATCH, DELETE) must say
  ``Content-Type: application/json``, which no form and no simple request can; else 415.
"""
from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import TypeGuard

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from drunter_notation.errors import printable
from drunter_notation.i18n import _

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def split_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` as (lower-case name, port or None); None when it is not ``name[:port]``."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[:end + 1], value[end + 1:]
    else:
        name, sep, port = value.partition(":")
        rest = sep + port
    if not name or (rest and not (rest.startswith(":") and rest[1:].isdigit() and len(rest) <= 6)):
        return None
    return name, int(rest[1:]) if rest else None


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


class SameOrigin:
    """ASGI middleware: the three checks above, for a server listening on ``host``
    (as given to ``--host``; a name given there is accepted too) and ``port``
    (None: any port, for an app not bound to a socket, as in tests); its refusals carry
    ``headers`` as every other answer does."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int | None = None, extra: Iterable[str] = (),
                 headers: Mapping[str, str] | None = None):
        self.app, self.port, self.headers = app, port, dict(headers or {})
        self.any_ip = host in WILDCARDS
        shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
        self.names = LOOPBACK_NAMES | {shown.lower()} | {n.lower() for n in extra}

    def host_ok(self, value: str | None) -> TypeGuard[str]:
        parts = split_host(value or "")
        if parts is None:
            return False
        name, port = parts
        if self.port is not None and (port or 80) != self.port:
            return False
        ip = _ip(name)
        return name in self.names or (ip is not None and (ip.is_loopback or self.any_ip))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        host, origin = headers.get("host"), headers.get("origin")
        refusal = None
        if not self.host_ok(host):
            refusal = 400, _("Host {host} is not this server: open the address drunter play printed (a page "
                             "under another name cannot reach in)").format(host=_shown(host))
        elif origin is not None and origin.strip().lower() != f"http://{host.strip().lower()}":
            refusal = 403, _("a request from the page {origin} is refused: only this server's own page may send "
                             "requests with an Origin").format(origin=_shown(origin))
        elif scope["type"] == "http" and scope["method"] in WRITES and not _json(headers.get("content-type")):
            refusal = 415, _("a request that changes something is sent with Content-Type: application/json")
        if refusal is None:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":  # closing before the handshake answers it with 403
            return await send({"type": "websocket.close", "code": 1008})
        return await JSONResponse({"error": refusal[1]}, refusal[0], headers=self.headers)(scope, receive, send)


def _json(content_type: str | None) -> bool:
    return (content_type or "").split(";")[0].strip().lower() == "application/json"


def _shown(value: str | None) -> str:
    """A header value quoted for an error line: bounded, control characters escaped."""
    return _("(none)") if value is None else f"'{printable(value[:80])}'"
